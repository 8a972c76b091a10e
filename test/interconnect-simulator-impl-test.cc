/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// InterconnectSimulatorImpl runs what ns-3's DefaultSimulatorImpl runs: the same events at the
// same times in the same contexts and order, with the same uids, expiry, delays left, event
// count, Stop and Destroy, on either scheduler; its fast paths for the models (NowStep,
// ContextNow, ScheduleWithContextNow) schedule as Simulator does.

#include "ns3/canonical-scheduler.h"
#include "ns3/global-value.h"
#include "ns3/interconnect-simulator-impl.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace ns3;

namespace
{

std::ostringstream g_log;
uint64_t g_state = 1;
std::vector<EventId> g_ids;

uint64_t
Draw(uint64_t n)
{
    g_state = g_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (g_state >> 33) % n;
}

void Step(uint32_t depth);

/// Note what the simulator says of the running event and of a few earlier ones.
void
Note(const char* what)
{
    g_log << what << ' ' << Simulator::Now().GetTimeStep() << ' ' << Simulator::GetContext() << ' '
          << Simulator::GetEventCount();
    for (std::size_t i = g_ids.size() >= 3 ? g_ids.size() - 3 : 0; i < g_ids.size(); ++i)
    {
        g_log << ' ' << g_ids[i].GetUid() << ':' << Simulator::IsExpired(g_ids[i]) << ':'
              << Simulator::GetDelayLeft(g_ids[i]).GetTimeStep();
    }
    g_log << '\n';
}

/// An event that schedules a few more, in every way Simulator offers, and cancels or removes
/// some of those pending: times tie often (delays of 0 to 3 ns), contexts vary.
void
Step(uint32_t depth)
{
    Note("step");
    if (depth == 0)
    {
        return;
    }
    for (uint64_t n = 1 + Draw(3); n > 0; --n)
    {
        const Time delay = NanoSeconds(Draw(4));
        switch (Draw(4))
        {
        case 0:
            g_ids.push_back(Simulator::Schedule(delay, &Step, depth - 1));
            break;
        case 1:
            Simulator::ScheduleWithContext(static_cast<uint32_t>(Draw(5)), delay, &Step, depth - 1);
            break;
        case 2:
            g_ids.push_back(Simulator::ScheduleNow(&Step, depth - 1));
            break;
        default:
            CanonicalScheduler::KeyNextEvent(static_cast<uint32_t>(Draw(2)), Draw(1000));
            Simulator::ScheduleWithContext(7, delay, &Note, "arrival");
            break;
        }
    }
    if (!g_ids.empty() && Draw(5) == 0)
    {
        EventId victim = g_ids[Draw(g_ids.size())];
        // (Removed only when due later: an event of the current time with a larger uid may have
        // run already under the CanonicalScheduler, whose order is not the uids', and
        // EventId::IsExpired, on either implementation, judges by the uid.)
        if (Draw(2) == 0 || victim.GetTs() <= static_cast<uint64_t>(Simulator::Now().GetTimeStep()))
        {
            Simulator::Cancel(victim);
        }
        else
        {
            Simulator::Remove(victim);
        }
    }
}

/// Run the scripted simulation on an implementation and scheduler, changed to the other
/// scheduler with events queued, and destroyed with events queued. @return its log
std::string
Script(const std::string& impl, const std::string& scheduler, const std::string& other)
{
    g_log.str("");
    g_state = 1;
    g_ids.clear();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    Simulator::SetScheduler(ObjectFactory(scheduler));
    for (uint32_t i = 0; i < 40; ++i)
    {
        Simulator::ScheduleWithContext(i % 4, NanoSeconds(i % 7), &Step, 8U);
    }
    const EventId destroy = Simulator::ScheduleDestroy(&Note, "destroy");
    const EventId removed = Simulator::ScheduleDestroy(&Note, "destroy-removed");
    Simulator::Remove(removed);
    g_log << "destroy pending " << !Simulator::IsExpired(destroy) << ' '
          << !Simulator::IsExpired(removed) << '\n';
    Simulator::Stop(NanoSeconds(12));
    Simulator::Run();
    Note("stopped");
    g_log << "finished " << Simulator::IsFinished() << '\n';
    Simulator::SetScheduler(ObjectFactory(other)); // the queued events move over
    Simulator::Stop(NanoSeconds(5));
    Simulator::Run();
    Note("ran");
    // Events still queued when the simulation is destroyed are released, once each: their
    // functions hold a reference to the token.
    auto token = std::make_shared<int>(0);
    for (uint32_t i = 0; i < 50; ++i)
    {
        Simulator::Schedule(MicroSeconds(1 + i % 3), [token]() { Note("never"); });
    }
    EXPECT_EQ(token.use_count(), 51);
    Simulator::Destroy();
    EXPECT_EQ(token.use_count(), 1) << impl;
    return g_log.str();
}

class InterconnectSimulatorImplTest : public ::testing::TestWithParam<std::string>
{
  protected:
    void TearDown() override
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    }
};

TEST_P(InterconnectSimulatorImplTest, RunsWhatTheDefaultImplementationRuns)
{
    const std::string other =
        GetParam() == "ns3::MapScheduler" ? "ns3::CanonicalScheduler" : "ns3::MapScheduler";
    const std::string expected = Script("ns3::DefaultSimulatorImpl", GetParam(), other);
    const std::string ours = Script("ns3::InterconnectSimulatorImpl", GetParam(), other);
    EXPECT_GT(std::count(expected.begin(), expected.end(), '\n'), 1000);
    const int64_t ns = NanoSeconds(1).GetTimeStep();
    EXPECT_NE(expected.find("stopped " + std::to_string(12 * ns)), std::string::npos);
    EXPECT_NE(expected.find("ran " + std::to_string(17 * ns)), std::string::npos);
    EXPECT_EQ(expected.find("never"), std::string::npos);
    EXPECT_NE(expected.find("destroy "), std::string::npos) << "no destroy event ran";
    EXPECT_EQ(expected.find("destroy-removed"), std::string::npos);
    EXPECT_EQ(ours, expected);
}

INSTANTIATE_TEST_SUITE_P(Schedulers,
                         InterconnectSimulatorImplTest,
                         ::testing::Values("ns3::CanonicalScheduler", "ns3::MapScheduler"));

/// The models' fast paths: the time, and a context's event with the caller's reference.
TEST(InterconnectSimulatorImplFastPath, SchedulesAsSimulatorDoes)
{
    for (const char* impl : {"ns3::InterconnectSimulatorImpl", "ns3::DefaultSimulatorImpl"})
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        Simulator::SetScheduler(ObjectFactory("ns3::CanonicalScheduler"));
        EXPECT_EQ(InterconnectSimulatorImpl::Active() != nullptr,
                  std::string(impl) == "ns3::InterconnectSimulatorImpl");
        std::vector<std::pair<int64_t, uint32_t>> ran;
        EventImpl* event = MakeEvent([&ran]() {
            EXPECT_EQ(InterconnectSimulatorImpl::ContextNow(), Simulator::GetContext());
            ran.emplace_back(InterconnectSimulatorImpl::NowStep(), Simulator::GetContext());
        });
        Simulator::Schedule(NanoSeconds(5), [event]() {
            event->Ref();
            InterconnectSimulatorImpl::ScheduleWithContextNow(3, NanoSeconds(2), event);
        });
        event->Ref();
        InterconnectSimulatorImpl::ScheduleWithContextNow(9, NanoSeconds(1), event);
        Simulator::Run();
        event->Unref(); // (MakeEvent's reference, which kept it for the second time)
        const int64_t ns = NanoSeconds(1).GetTimeStep();
        const std::vector<std::pair<int64_t, uint32_t>> expected = {{ns, 9}, {7 * ns, 3}};
        EXPECT_EQ(ran, expected) << impl;
        Simulator::Destroy();
        EXPECT_EQ(InterconnectSimulatorImpl::Active(), nullptr);
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
}

/// The fast paths follow the implementation Simulator runs: not one merely created, nor one
/// kept alive past Simulator::Destroy by another reference.
TEST(InterconnectSimulatorImplFastPath, FollowsTheInstalledImplementation)
{
    Ptr<InterconnectSimulatorImpl> kept = CreateObject<InterconnectSimulatorImpl>();
    EXPECT_EQ(InterconnectSimulatorImpl::Active(), nullptr) << "created, not installed";
    Simulator::SetImplementation(kept);
    EXPECT_EQ(InterconnectSimulatorImpl::Active(), PeekPointer(kept));
    Simulator::Destroy();
    EXPECT_EQ(InterconnectSimulatorImpl::Active(), nullptr) << "destroyed, still referenced";
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    bool ran = false;
    EventImpl* event = MakeEvent([&ran]() { ran = true; });
    InterconnectSimulatorImpl::ScheduleWithContextNow(0, NanoSeconds(1), event); // its reference
    Simulator::Run();
    EXPECT_TRUE(ran) << "scheduled on an implementation nobody runs";
    EXPECT_EQ(InterconnectSimulatorImpl::NowStep(), NanoSeconds(1).GetTimeStep());
    Simulator::Destroy();
}

TEST(InterconnectSimulatorImplDeathTest, RefusesAnotherThreadByName)
{
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            GlobalValue::Bind("SimulatorImplementationType",
                              StringValue("ns3::InterconnectSimulatorImpl"));
            Simulator::Now();
            std::thread other([]() { Simulator::ScheduleWithContext(1, NanoSeconds(1), []() {}); });
            other.join();
        },
        "from a thread other than the simulation's.*ns3::DefaultSimulatorImpl");
}

} // namespace
