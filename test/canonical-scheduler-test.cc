/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CanonicalScheduler: events of the same time run in an order fixed by the network (link
// arrivals by receiving device and frame number, then each node's own events in the order the
// node scheduled them), not by when an arrival reached the queue.

#include "ns3/canonical-scheduler.h"
#include "ns3/global-value.h"
#include "ns3/interconnect-events.h"
#include "ns3/interconnect-simulator-impl.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/remote-link-tag.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

std::vector<std::string> g_ran;

void
Record(std::string name)
{
    g_ran.push_back(name);
}

/// An arrival for node `node` on device `device`, frame `seq`, scheduled `delay` from now.
void
Arrival(uint32_t node, uint32_t device, uint64_t seq, Time delay, const std::string& name)
{
    CanonicalScheduler::KeyNextEvent(device, seq);
    Simulator::ScheduleWithContext(node, delay, &Record, name);
}

class CanonicalSchedulerTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        g_ran.clear();
        Simulator::SetScheduler(ObjectFactory("ns3::CanonicalScheduler"));
        ASSERT_TRUE(CanonicalScheduler::IsActive());
    }

    void TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST_F(CanonicalSchedulerTest, ArrivalsRunInDeviceOrderBeforeTheNodesOwnEvents)
{
    // At t = 5 us on node 1: a local timer scheduled first, then two arrivals whose insertion
    // order is the reverse of their device order, and a second local event.
    Simulator::ScheduleWithContext(1, MicroSeconds(5), &Record, std::string("local-a"));
    Arrival(1, 3, 0, MicroSeconds(5), "dev3");
    Arrival(1, 2, 7, MicroSeconds(5), "dev2");
    Simulator::ScheduleWithContext(1, MicroSeconds(5), &Record, std::string("local-b"));
    // Node 0's event of the same time runs first (node order); an earlier event before all.
    Simulator::ScheduleWithContext(0, MicroSeconds(5), &Record, std::string("node0"));
    Simulator::ScheduleWithContext(1, MicroSeconds(4), &Record, std::string("earlier"));
    Simulator::Run();
    const std::vector<std::string> expected =
        {"earlier", "node0", "dev2", "dev3", "local-a", "local-b"};
    EXPECT_EQ(g_ran, expected);
}

/// A node's own events of one time run in the order it scheduled them, on that node, however
/// many (a run of one time of 64 or more is sorted by radix, a shorter one by std::sort: neither
/// keeps a node's events in order without the insertion order in the key) and whichever
/// implementation queues them (InterconnectSimulatorImpl inserts by its own path), those
/// scheduled for the current time from an event included.
class CanonicalSchedulerOrderTest : public ::testing::TestWithParam<std::string>
{
  protected:
    void SetUp() override
    {
        g_ran.clear();
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue(GetParam()));
        Simulator::SetScheduler(ObjectFactory("ns3::CanonicalScheduler"));
        ASSERT_EQ(InterconnectSimulatorImpl::Active() != nullptr,
                  GetParam() == "ns3::InterconnectSimulatorImpl");
    }

    /// Record an event's name with the node it ran on. @param name the name
    static void RecordOnNode(std::string name)
    {
        Record(std::to_string(Simulator::GetContext()) + ":" + name);
    }

    void TearDown() override
    {
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    }
};

TEST_P(CanonicalSchedulerOrderTest, ANodesEventsOfOneTimeRunInTheOrderItScheduledThem)
{
    std::vector<std::string> expected;
    const std::vector<std::pair<uint32_t, uint32_t>> runs = {{1, 5}, {2, 40}, {3, 300}}; // us, n
    for (const auto& [us, count] : runs)
    {
        for (uint32_t i = 0; i < count; ++i)
        {
            const std::string name = std::to_string(us) + "/" + std::to_string(i);
            Simulator::ScheduleWithContext(7, MicroSeconds(us), &RecordOnNode, name);
            expected.push_back("7:" + name);
            if (i % 3 == 0) // (another node's event of the same time, and a later one, between)
            {
                Simulator::ScheduleWithContext(9, MicroSeconds(us), []() {});
                Simulator::ScheduleWithContext(7, MicroSeconds(us) + NanoSeconds(i + 1), []() {});
            }
        }
    }
    // From an event at 4 us: events for now, behind the next one, in the run's span.
    Simulator::ScheduleWithContext(7, MicroSeconds(4), []() {
        for (uint32_t i = 0; i < 100; ++i)
        {
            Simulator::ScheduleWithContext(7, Time(0), &RecordOnNode, "now/" + std::to_string(i));
        }
    });
    for (uint32_t i = 0; i < 100; ++i)
    {
        expected.push_back("7:now/" + std::to_string(i));
    }
    Simulator::Run();
    EXPECT_EQ(g_ran, expected);
}

INSTANTIATE_TEST_SUITE_P(Implementations,
                         CanonicalSchedulerOrderTest,
                         ::testing::Values("ns3::DefaultSimulatorImpl",
                                           "ns3::InterconnectSimulatorImpl"));

TEST_F(CanonicalSchedulerTest, EventsForNowTakeTheirPlaceAmongThoseOfNow)
{
    // At t = 5 us, node 0's event schedules events for nodes 3 and 1 at the same time: node 1's
    // runs before node 2's, which was waiting already (node order), node 1's arrival keyed now
    // before it (arrivals first), and node 3's after node 2's.
    Simulator::ScheduleWithContext(2, MicroSeconds(5), &Record, std::string("node2"));
    Simulator::ScheduleWithContext(0, MicroSeconds(5), []() {
        Record("node0");
        Simulator::ScheduleWithContext(3, Time(0), &Record, std::string("node3"));
        Simulator::ScheduleWithContext(1, Time(0), &Record, std::string("node1"));
        Arrival(1, 0, 9, Time(0), "node1-arrival");
    });
    Simulator::Run();
    const std::vector<std::string> expected = {"node0", "node1-arrival", "node1", "node2", "node3"};
    EXPECT_EQ(g_ran, expected);
}

TEST_F(CanonicalSchedulerTest, AnArrivalInsertedLateTakesTheSamePlace)
{
    // The same arrivals, once scheduled at t = 0 and once from an event at t = 3 us (as a frame
    // from another rank is, at a window boundary): the order at t = 5 us is the same.
    Simulator::ScheduleWithContext(1, MicroSeconds(5), &Record, std::string("local"));
    Arrival(1, 1, 4, MicroSeconds(5), "frame4");
    Simulator::Schedule(MicroSeconds(3), &Arrival, 1, 1, 3, MicroSeconds(2), std::string("frame3"));
    Simulator::Run();
    const std::vector<std::string> expected = {"frame3", "frame4", "local"};
    EXPECT_EQ(g_ran, expected);
}

TEST_F(CanonicalSchedulerTest, CancelledAndRemovedEventsDoNotRun)
{
    EventId a = Simulator::Schedule(MicroSeconds(1), &Record, std::string("removed"));
    EventId b = Simulator::Schedule(MicroSeconds(1), &Record, std::string("cancelled"));
    Simulator::Schedule(MicroSeconds(1), &Record, std::string("kept"));
    Simulator::Remove(a);
    Simulator::Cancel(b);
    Simulator::Run();
    EXPECT_EQ(g_ran, std::vector<std::string>{"kept"});
}

/// The scheduler on its own, against a sorted reference: 20 000 events over few nodes, a third
/// of them arrivals, inserted in bursts between pops, every seventh removed before it runs.
/// `spread`: times up to 2^40 steps ahead for half the events (else within 4 steps, so that
/// most keys tie on time), and peeks between the pops, after which an event may come before the
/// time the queue has moved its buckets to.
void
PopsInKeyOrder(bool spread)
{
    Ptr<CanonicalScheduler> q = CreateObject<CanonicalScheduler>();
    using Key = std::tuple<uint64_t, uint64_t, uint64_t>; // time, node << 32 | device, order
    std::map<Key, uint32_t> reference;                    // key -> uid
    std::vector<Scheduler::Event> removable;
    uint64_t inserted = 0;
    uint64_t state = 12345;
    auto next = [&state](uint64_t n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % n;
    };
    uint32_t uid = 0;
    uint64_t now = 0;
    std::vector<uint32_t> popped;
    std::vector<uint32_t> expected;
    while (uid < 20000 || !reference.empty())
    {
        for (uint32_t burst = next(8); burst > 0 && uid < 20000; --burst)
        {
            Scheduler::Event ev;
            ev.impl = nullptr;
            ev.key.m_ts = now + (spread && next(2) == 0 ? next(1ULL << 40) : next(4));
            ev.key.m_context = static_cast<uint32_t>(next(5));
            ev.key.m_uid = ++uid;
            uint64_t where = (uint64_t{ev.key.m_context} << 32) | 0xffffffffULL;
            uint64_t order = inserted++;
            if (next(3) == 0)
            {
                const uint32_t device = static_cast<uint32_t>(next(3));
                const uint64_t seq = uid; // distinct per device, as a channel's sequence is
                CanonicalScheduler::KeyNextEvent(device, seq);
                where = (uint64_t{ev.key.m_context} << 32) | device;
                order = seq;
            }
            q->Insert(ev);
            reference[Key{ev.key.m_ts, where, order}] = ev.key.m_uid;
            if (ev.key.m_uid % 7 == 0)
            {
                removable.push_back(ev);
            }
        }
        if (!removable.empty() && next(4) == 0)
        {
            const Scheduler::Event ev = removable.back();
            removable.pop_back();
            q->Remove(ev);
            for (auto it = reference.begin(); it != reference.end(); ++it)
            {
                if (it->second == ev.key.m_uid)
                {
                    reference.erase(it);
                    break;
                }
            }
        }
        if (spread && !reference.empty() && next(2) == 0)
        {
            EXPECT_EQ(q->PeekNext().key.m_uid, reference.begin()->second);
        }
        if (!reference.empty() && next(3) != 0)
        {
            const Scheduler::Event ev = q->RemoveNext();
            popped.push_back(ev.key.m_uid);
            expected.push_back(reference.begin()->second);
            now = std::get<0>(reference.begin()->first);
            reference.erase(reference.begin());
            removable.erase(std::remove_if(removable.begin(),
                                           removable.end(),
                                           [&ev](const Scheduler::Event& r) {
                                               return r.key.m_uid == ev.key.m_uid;
                                           }),
                            removable.end());
        }
    }
    EXPECT_TRUE(q->IsEmpty());
    EXPECT_GT(popped.size(), 15000U);
    EXPECT_EQ(popped, expected);
}

TEST(CanonicalSchedulerHeap, PopsInKeyOrderThroughInsertsAndRemoves)
{
    PopsInKeyOrder(false);
}

TEST(CanonicalSchedulerHeap, PopsInKeyOrderOverFarApartTimesAndPeeks)
{
    PopsInKeyOrder(true);
}

/// A few events close in time are taken as one sorted run (the times 2^20 + 100 to 2^20 + 300
/// differ from 0 first in the digit of bit 20, where they have the same value); events inserted
/// while it runs, between its times or at its last, take their places in it.
TEST(CanonicalSchedulerHeap, EventsInsertedWithinARunTakeTheirPlaces)
{
    Ptr<CanonicalScheduler> q = CreateObject<CanonicalScheduler>();
    uint32_t uid = 0;
    auto insert = [&q, &uid](uint64_t ts, uint32_t node) {
        Scheduler::Event ev;
        ev.impl = nullptr;
        ev.key.m_ts = (1ULL << 20) + ts;
        ev.key.m_context = node;
        ev.key.m_uid = ++uid;
        q->Insert(ev);
        return uid;
    };
    const uint32_t at300 = insert(300, 2);
    const uint32_t at100 = insert(100, 0);
    const uint32_t at200 = insert(200, 0);
    const uint32_t far = insert(1ULL << 30, 0);
    EXPECT_EQ(q->RemoveNext().key.m_uid, at100);
    const uint32_t at150 = insert(150, 0);
    const uint32_t at300first = insert(300, 1); // node 1 before node 2 at the same time
    const uint32_t at250 = insert(250, 0);
    const uint32_t at100again = insert(100, 3); // for now, after the event that ran
    const uint32_t at301 = insert(301, 0);
    const std::vector<uint32_t> expected =
        {at100again, at150, at200, at250, at300first, at300, at301, far};
    std::vector<uint32_t> popped;
    while (!q->IsEmpty())
    {
        popped.push_back(q->RemoveNext().key.m_uid);
    }
    EXPECT_EQ(popped, expected);
}

/// Events all of one time, many more than a bucket's chunk, so that the bucket is spread and
/// they become one run; nodes below @p nodes, devices below @p devices, a third of them a
/// node's own events; some links with several frames (ties on node and device) and nodes with
/// several own events (ties broken by the order of insertion). They run in key order.
void
ARunOfOneTimeRunsInKeyOrder(uint32_t nodes, uint32_t devices, bool radix, int events = 3000)
{
    Ptr<CanonicalScheduler> q = CreateObject<CanonicalScheduler>();
    using Key = std::tuple<uint64_t, uint64_t, uint64_t>; // time, node << 32 | device, order
    std::map<Key, uint32_t> reference;                    // key -> uid
    uint64_t state = 777;
    auto next = [&state](uint64_t n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % n;
    };
    const uint64_t time = 5000000; // (5 us: far from 0 in a high digit)
    uint64_t inserted = 0;
    uint32_t uid = 0;
    for (int i = 0; i < events; ++i)
    {
        Scheduler::Event ev;
        ev.impl = nullptr;
        ev.key.m_ts = time;
        // (Every 50th event on node 7: a node with many own events and frames.)
        ev.key.m_context = i % 50 == 0 ? 7 : static_cast<uint32_t>(next(nodes));
        ev.key.m_uid = ++uid;
        uint64_t where = (uint64_t{ev.key.m_context} << 32) | 0xffffffffULL;
        uint64_t order = inserted++;
        if (next(3) != 0)
        {
            const auto device = static_cast<uint32_t>(i % 100 == 0 ? 1 : next(devices));
            const uint64_t seq = 10000 - next(10000) * 3 - i % 3; // (not in insertion order)
            if (reference.count(Key{time, (uint64_t{ev.key.m_context} << 32) | device, seq}))
            {
                continue; // (a link's sequence numbers are distinct)
            }
            CanonicalScheduler::KeyNextEvent(device, seq);
            where = (uint64_t{ev.key.m_context} << 32) | device;
            order = seq;
        }
        q->Insert(ev);
        reference[Key{time, where, order}] = ev.key.m_uid;
    }
    std::vector<uint32_t> popped;
    std::vector<uint32_t> expected;
    for (const auto& [key, id] : reference)
    {
        expected.push_back(id);
    }
    while (!q->IsEmpty())
    {
        popped.push_back(q->RemoveNext().key.m_uid);
    }
    EXPECT_GT(popped.size(), static_cast<std::size_t>(events) * 29 / 30);
    EXPECT_EQ(popped, expected);
    EXPECT_EQ(q->GetRadixSortedRuns(), radix ? 1U : 0U); // (the one run, or std::sort's)
}

TEST(CanonicalSchedulerHeap, ARunOfOneTimeRunsInKeyOrder)
{
    ARunOfOneTimeRunsInKeyOrder(1500, 21, true);       // a key of 16 bits: two passes
    ARunOfOneTimeRunsInKeyOrder(100000, 17, true);     // 22 bits: three
    ARunOfOneTimeRunsInKeyOrder(3, 2, true);           // 5 bits (node 7 among them): one
    ARunOfOneTimeRunsInKeyOrder(1U << 30, 64, false);  // 37 bits: too many for its key
    ARunOfOneTimeRunsInKeyOrder(1500, 21, true, 9000); // longer than GATHER_MAX: moved in place
}

TEST(RemoteLinkTag, TravelsWithASerializedPacket)
{
    // MpiInterface sends a frame as Packet::Serialize bytes; the tag must come out whole.
    Ptr<Packet> p = Create<Packet>(1000);
    RemoteLinkTag tag;
    tag.info = 0x0103; // VL 3 with the flow-control bit
    tag.sequence = 0x123456789aULL;
    tag.remaining = 81920;
    p->AddPacketTag(tag);
    std::vector<uint8_t> bytes(p->GetSerializedSize());
    // (Serialize returns 1 on success up to ns-3.48, the bytes written in ns-3-dev; 0 on
    // failure in both.)
    ASSERT_NE(p->Serialize(bytes.data(), static_cast<uint32_t>(bytes.size())), 0u);
    Ptr<Packet> q = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()), true);
    RemoteLinkTag back;
    ASSERT_TRUE(q->RemovePacketTag(back));
    EXPECT_EQ(back.info, tag.info);
    EXPECT_EQ(back.sequence, tag.sequence);
    EXPECT_EQ(back.remaining, tag.remaining);
    EXPECT_EQ(q->GetSize(), 1000u);
}

namespace
{

/// Two timers of one time on two nodes, and what each sees of the other when it runs.
struct TwoTimers
{
    PendingEvent onNode1;
    PendingEvent onNode0;
    bool node1PendingSeenByNode0{false};
    bool node0PendingSeenByNode1{true};

    void Node0Runs()
    {
        node1PendingSeenByNode0 = onNode1.IsPending();
    }

    void Node1Runs()
    {
        node0PendingSeenByNode1 = onNode0.IsPending();
    }
};

} // namespace

TEST_F(CanonicalSchedulerTest, APendingEventKnowsWhetherItRanAtTheCurrentTime)
{
    // Both due at 1 us; node 1's timer is scheduled first (the lower uid) yet runs second, as
    // the canonical order puts node 0 first. ns-3's IsExpired compares uids at the current time
    // and calls node 1's timer expired while it is still to run, node 0's pending after it ran.
    TwoTimers t;
    Simulator::ScheduleWithContext(1, Time(0), [&t]() {
        t.onNode1.Schedule(MicroSeconds(1), &TwoTimers::Node1Runs, &t);
    });
    Simulator::ScheduleWithContext(1, Time(0), [&t]() {
        Simulator::ScheduleWithContext(0, Time(0), [&t]() {
            t.onNode0.Schedule(MicroSeconds(1), &TwoTimers::Node0Runs, &t);
        });
    });
    Simulator::Run();
    EXPECT_TRUE(t.node1PendingSeenByNode0);
    EXPECT_FALSE(t.node0PendingSeenByNode1);
    EXPECT_FALSE(t.onNode0.IsPending());
    EXPECT_FALSE(t.onNode1.IsPending());
}

TEST_F(CanonicalSchedulerTest, ACancelledPendingEventDoesNotRun)
{
    int runs = 0;
    PendingEvent e;
    auto bump = [&runs]() { ++runs; };
    using Bump = decltype(bump);
    e.Schedule(MicroSeconds(2), &Bump::operator(), &bump);
    EXPECT_TRUE(e.IsPending());
    EXPECT_EQ(e.GetTime(), MicroSeconds(2));
    e.Schedule(MicroSeconds(3), &Bump::operator(), &bump); // replaces the first
    Simulator::Schedule(MicroSeconds(1), [&e]() { e.Cancel(); });
    Simulator::Schedule(MicroSeconds(4),
                        [&e, &bump]() { e.Schedule(MicroSeconds(1), &Bump::operator(), &bump); });
    Simulator::Run();
    EXPECT_EQ(runs, 1);
    EXPECT_FALSE(e.IsPending());
}

namespace
{

/// What a timer's calls and the events around them ran, and when.
struct TimerRun
{
    std::vector<std::pair<int64_t, std::string>> ran; //!< (time in ns, what)
    uint64_t events{0};                               //!< events the simulator ran
};

/// Records a timer's calls.
struct TimerTarget
{
    TimerRun* run;

    void Fire()
    {
        run->ran.emplace_back(Simulator::Now().GetNanoSeconds(), "timer");
    }
};

/**
 * Drive a timer through a replacement, a cancel, a rescheduling to an earlier time and one to
 * the time of its cancelled call, with other events of the same times around it.
 * @param schedule schedules the timer's call after a delay
 * @param cancel cancels it
 * @param run where the calls are recorded
 */
void
DriveTimer(const std::function<void(Time)>& schedule,
           const std::function<void()>& cancel,
           TimerRun& run)
{
    auto mark = [&run](const std::string& what) {
        return [&run, what]() { run.ran.emplace_back(Simulator::Now().GetNanoSeconds(), what); };
    };
    Simulator::Schedule(Time(0), [=]() {
        schedule(MicroSeconds(2));
        schedule(MicroSeconds(3)); // replaces the call at 2 us
        Simulator::Schedule(MicroSeconds(5), mark("before"));
    });
    Simulator::Schedule(MicroSeconds(1), cancel);
    Simulator::Schedule(MicroSeconds(4), [=]() {
        schedule(MicroSeconds(1)); // at 5 us, after "before", before "after"
        Simulator::Schedule(MicroSeconds(1), mark("after"));
    });
    Simulator::Schedule(MicroSeconds(6), [=]() { schedule(MicroSeconds(3)); });
    Simulator::Schedule(MicroSeconds(7), [=]() { schedule(MicroSeconds(1)); }); // earlier: 8 us
    Simulator::Schedule(MicroSeconds(10), [=]() {
        schedule(MicroSeconds(1));
        Simulator::Schedule(MicroSeconds(1), mark("mid"));
    });
    // The same time as the call it replaces (11 us): it runs in its own place, after "mid".
    Simulator::Schedule(NanoSeconds(10500), [=]() { schedule(NanoSeconds(500)); });
    Simulator::Run();
    run.events = Simulator::GetEventCount();
    Simulator::Destroy();
    Simulator::SetScheduler(ObjectFactory("ns3::CanonicalScheduler"));
}

} // namespace

// A ReusableTimer reuses its event objects yet runs as a PendingEvent: the same calls at the
// same times, in the same places among the other events of their time, and the same number of
// events (a cancelled call stays queued, inert, as a cancelled event does).
TEST_F(CanonicalSchedulerTest, AReusableTimerRunsAsAPendingEventWould)
{
    const std::vector<std::pair<int64_t, std::string>> expected{{5000, "before"},
                                                                {5000, "timer"},
                                                                {5000, "after"},
                                                                {8000, "timer"},
                                                                {11000, "mid"},
                                                                {11000, "timer"}};
    // On ns-3's simulator (the timer goes through Simulator) and on the module's (its fast path).
    for (const char* impl : {"ns3::DefaultSimulatorImpl", "ns3::InterconnectSimulatorImpl"})
    {
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        Simulator::SetScheduler(ObjectFactory("ns3::CanonicalScheduler"));

        TimerRun pending;
        TimerTarget pendingTarget{&pending};
        PendingEvent p;
        DriveTimer([&](Time d) { p.Schedule(d, &TimerTarget::Fire, &pendingTarget); },
                   [&]() { p.Cancel(); },
                   pending);

        TimerRun reused;
        TimerTarget reusedTarget{&reused};
        ReusableTimer r;
        r.Bind<TimerTarget, &TimerTarget::Fire>(&reusedTarget);
        DriveTimer([&](Time d) { r.Schedule(d); }, [&]() { r.Cancel(); }, reused);

        EXPECT_EQ(pending.ran, expected) << impl;
        EXPECT_EQ(reused.ran, expected) << impl;
        EXPECT_EQ(reused.events, pending.events) << impl;
        EXPECT_FALSE(r.IsPending()) << impl;
    }
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
}

// A timer (and its object) may go while its call is queued: the call runs inert.
TEST_F(CanonicalSchedulerTest, AReusableTimerMayGoWhileItsCallIsQueued)
{
    TimerRun run;
    auto target = std::make_unique<TimerTarget>(TimerTarget{&run});
    auto timer = std::make_unique<ReusableTimer>();
    timer->Bind<TimerTarget, &TimerTarget::Fire>(target.get());
    timer->Schedule(MicroSeconds(2));
    EXPECT_TRUE(timer->IsPending());
    EXPECT_EQ(timer->GetTime(), MicroSeconds(2));
    Simulator::Schedule(MicroSeconds(1), [&]() {
        timer.reset();
        target.reset();
    });
    Simulator::Run();
    EXPECT_TRUE(run.ran.empty());
    EXPECT_EQ(Simulator::GetEventCount(), 2u);
}

TEST_F(CanonicalSchedulerTest, AHintedTimersHintsGoWithItsEventObject)
{
    // A timer bound with BindHinted copies its call's hints into the event object, which the
    // simulator keeps while the call is queued: the scheduler reads them as the call comes near
    // (one event ahead), after the caller's array, the timer and its object have gone. Were it
    // to keep the caller's array, AddressSanitizer (./interconnect test --sanitize) would report
    // the read; here the calls around it run as they would without hints.
    TimerRun run;
    auto target = std::make_unique<TimerTarget>(TimerTarget{&run});
    auto timer = std::make_unique<ReusableTimer>();
    timer->BindHinted<TimerTarget, &TimerTarget::Fire>(target.get());
    auto hints = std::make_unique<ReusableTimer::Hints>();
    hints->fill(&run);
    (*hints)[CanonicalScheduler::HINTS - 1] = nullptr; // (not a span)
    timer->Schedule(MicroSeconds(2), hints.get());
    hints.reset();
    for (int i = 1; i <= 3; ++i)
    {
        Simulator::Schedule(NanoSeconds(2000 - i), [&run]() {
            run.ran.emplace_back(Simulator::Now().GetNanoSeconds(), "before");
        });
        Simulator::Schedule(NanoSeconds(2000 + i), [&run]() {
            run.ran.emplace_back(Simulator::Now().GetNanoSeconds(), "after");
        });
    }
    Simulator::Schedule(MicroSeconds(1), [&]() {
        timer.reset();
        target.reset();
    });
    Simulator::Run();
    ASSERT_EQ(run.ran.size(), 6u); // (the timer's call cancelled with it)
    EXPECT_EQ(run.ran[2], (std::pair<int64_t, std::string>{1999, "before"}));
    EXPECT_EQ(run.ran[3], (std::pair<int64_t, std::string>{2001, "after"}));
    EXPECT_EQ(Simulator::GetEventCount(), 8u);
}

// A ReusableEvent's occurrences stop for good when it is cancelled, whether the simulator runs
// them through EventImpl::Invoke (ns-3's simulator, or the module's with another scheduler) or
// by its inline call (the module's with a CanonicalScheduler), and stay counted as events.
TEST_F(CanonicalSchedulerTest, AReusableEventCancelledRunsNoMore)
{
    struct Counter
    {
        int hits{0};

        void Hit()
        {
            ++hits;
        }
    };

    for (const auto& [impl, scheduler] : std::vector<std::pair<std::string, std::string>>{
             {"ns3::DefaultSimulatorImpl", "ns3::CanonicalScheduler"},
             {"ns3::InterconnectSimulatorImpl", "ns3::CanonicalScheduler"},
             {"ns3::InterconnectSimulatorImpl", "ns3::MapScheduler"}})
    {
        Simulator::Destroy();
        GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
        Simulator::SetScheduler(ObjectFactory(scheduler));
        Counter counter;
        ReusableEvent event;
        event.Bind<&Counter::Hit>(&counter);
        for (int us = 1; us <= 3; ++us)
        {
            event.Schedule(MicroSeconds(us));
        }
        Simulator::Schedule(NanoSeconds(1500), [&]() { event.Cancel(); });
        Simulator::Run();
        EXPECT_EQ(counter.hits, 1) << impl << " " << scheduler;
        EXPECT_EQ(Simulator::GetEventCount(), 4u) << impl << " " << scheduler;
    }
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
}

// Event objects lie side by side in blocks of their own, whatever is made between them (a fabric
// makes each port's events among its other objects): a thousand of them, each made after a block
// of a port's size, lie on some 16 pages of 4 KB, not on one each; and an event's room, once it
// has gone, is the next one's.
TEST_F(CanonicalSchedulerTest, ReusableEventObjectsLieSideBySide)
{
    struct Target
    {
        void Run()
        {
        }
    };

    Target target;
    std::vector<std::unique_ptr<ReusableEvent>> events;
    std::vector<std::unique_ptr<char[]>> between;
    std::set<uintptr_t> pages;
    for (int i = 0; i < 1000; ++i)
    {
        between.emplace_back(new char[1472]);
        events.push_back(std::make_unique<ReusableEvent>());
        events.back()->Bind<&Target::Run>(&target);
        pages.insert(reinterpret_cast<uintptr_t>(events.back()->Hints().data()) / 4096);
    }
    EXPECT_LE(pages.size(), 40u);
    const void* last = events.back()->Hints().data();
    events.pop_back();
    ReusableEvent again;
    again.Bind<&Target::Run>(&target);
    EXPECT_EQ(again.Hints().data(), last);
}

// An event object is one cache line: its hints, which the scheduler fetches two events ahead,
// and what its run reads (the object; the method is a template argument) on the line they start
// on, and the next event object on the next line. With the method held as a pointer the object
// took 88 bytes, two lines, and the run read the second, which no fetch named.
TEST_F(CanonicalSchedulerTest, AReusableEventObjectIsOneCacheLine)
{
    struct Target
    {
        void Run()
        {
        }
    };

    Target target;
    std::vector<std::unique_ptr<ReusableEvent>> events;
    std::vector<uintptr_t> starts;
    for (int i = 0; i < 256; ++i)
    {
        events.push_back(std::make_unique<ReusableEvent>());
        events.back()->Bind<&Target::Run>(&target);
        const auto hints = reinterpret_cast<uintptr_t>(events.back()->Hints().data());
        const uintptr_t end = hints + sizeof(events.back()->Hints());
        // (The hints, then the object's pointer, all on the line the object starts on.)
        EXPECT_EQ(hints / 64, (end + sizeof(void*) - 1) / 64) << "event " << i;
        starts.push_back(hints / 64 * 64);
    }
    std::sort(starts.begin(), starts.end());
    uintptr_t closest = UINTPTR_MAX;
    for (std::size_t i = 1; i < starts.size(); ++i)
    {
        closest = std::min(closest, starts[i] - starts[i - 1]);
    }
    EXPECT_EQ(closest, 64u); // side by side, a line each
}

// A timer restarted again and again within its delay (DCQCN's, on every CNP) has as many event
// objects queued, inert but for the last; once they have run it keeps one or two, not all of
// them, as PendingEvent's events are freed once run.
TEST_F(CanonicalSchedulerTest, AReusableTimerLetsGoOfTheEventsItNoLongerNeeds)
{
    TimerRun run;
    TimerTarget target{&run};
    ReusableTimer timer;
    timer.Bind<TimerTarget, &TimerTarget::Fire>(&target);
    for (int us = 0; us < 10; ++us)
    {
        Simulator::Schedule(MicroSeconds(us), [&]() { timer.Schedule(MicroSeconds(10)); });
    }
    Simulator::Schedule(MicroSeconds(9) + NanoSeconds(1), [&]() {
        EXPECT_EQ(timer.GetEventObjects(), 10u); // one per restart, all queued
    });
    Simulator::Run();
    EXPECT_EQ(run.ran.size(), 1u); // the last restart's call, at 19 us
    timer.Schedule(MicroSeconds(1));
    EXPECT_LE(timer.GetEventObjects(), 2u);
    Simulator::Run();
    EXPECT_EQ(run.ran.size(), 2u);
}

namespace
{

/// A frame of the test's queue: its number.
struct NumberedFrame
{
    int number;                             //!< the frame's number
    std::vector<std::string>* log{nullptr}; //!< where its arrival and fetch are told, or null

    /// @return nothing to fetch (ArrivalQueue's hint)
    const void* Touches() const
    {
        return nullptr;
    }

    /// The lines from what it touches that its arrival event names
    static constexpr uint32_t TOUCHED_LINES = 2;

    /// Its bytes are fetched as the frame before it arrives (ArrivalQueue's Item::FetchBytes)
    static constexpr bool FETCHES_BYTES = true;

    /// Tell the log that its bytes are fetched (ArrivalQueue's Item::FetchBytes)
    void FetchBytes() const
    {
        if (log)
        {
            log->push_back("fetch " + std::to_string(number));
        }
    }
};

/// A port that records the frames it receives and those it is asked to name a hint for.
class HintedPort
{
  public:
    /// @param frame the frame that arrives
    void Arrive(NumberedFrame& frame)
    {
        arrived.push_back(frame.number);
        if (frame.log)
        {
            frame.log->push_back("arrive " + std::to_string(frame.number));
        }
    }

    /// @param frame the frame next in line @return hint (null unless a test sets it)
    const void* NextHint(const NumberedFrame& frame) const
    {
        asked.push_back(frame.number);
        return hint;
    }

    const void* hint{nullptr}; //!< what NextHint names

    std::vector<int> arrived;       //!< the frames received, in order
    mutable std::vector<int> asked; //!< the frames asked about, in order
};

} // namespace

TEST_F(CanonicalSchedulerTest, OnceAFrameArrivesItsQueueAsksAboutTheNextOne)
{
    // An arrival's last hint names what the next frame's arrival reads (a switch: its egress
    // port): it is asked for the frame next in line once the first is through, never for the
    // frame that has just arrived, nor when none is left; and never by a port that reads its
    // frames' packets, whose last hint stays the packet's span.
    HintedPort port;
    ArrivalQueue<HintedPort, NumberedFrame, &HintedPort::Arrive, &HintedPort::NextHint> queue;
    queue.Bind(&port, nullptr, nullptr, false); // (the packets not read, as a switch's)
    HintedPort reader;
    ArrivalQueue<HintedPort, NumberedFrame, &HintedPort::Arrive, &HintedPort::NextHint> reading;
    reading.Bind(&reader);
    for (int i = 0; i < 4; ++i)
    {
        reading.Push(NumberedFrame{i}, 0, 100 * (i + 1), i, 0, 1);
    }
    for (int i = 0; i < 4; ++i)
    {
        queue.Push(NumberedFrame{i}, 0, 100 * (i + 1), i, 0, 0);
    }
    Simulator::Schedule(NanoSeconds(1), [&]() { EXPECT_TRUE(port.asked.empty()); });
    Simulator::Run();
    EXPECT_EQ(port.arrived, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(port.asked, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(reader.arrived, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_TRUE(reader.asked.empty());
    queue.Push(NumberedFrame{4}, Simulator::Now().GetTimeStep(), 100, 4, 0, 0); // after a pause
    Simulator::Run();
    EXPECT_EQ(port.asked, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(port.arrived.back(), 4);
}

TEST_F(CanonicalSchedulerTest, OnceAFrameArrivesItsQueueFetchesTheNextOnesBytes)
{
    // A port that reads its frames (a NIC's) has the bytes of the frame next in line fetched
    // once a frame has arrived (their address is in that frame's packet, fetched as the arrival
    // began): after each arrival, the next frame's, none after the last, none for a frame that
    // has arrived; a port that does not read its frames (a switch's) has none fetched.
    std::vector<std::string> nicLog;
    HintedPort reader;
    ArrivalQueue<HintedPort, NumberedFrame, &HintedPort::Arrive, &HintedPort::NextHint> reading;
    reading.Bind(&reader);
    std::vector<std::string> switchLog;
    HintedPort port;
    ArrivalQueue<HintedPort, NumberedFrame, &HintedPort::Arrive, &HintedPort::NextHint> queue;
    queue.Bind(&port, nullptr, nullptr, false);
    for (int i = 0; i < 3; ++i)
    {
        reading.Push(NumberedFrame{i, &nicLog}, 0, 100 * (i + 1), i, 0, 0);
        queue.Push(NumberedFrame{i, &switchLog}, 0, 100 * (i + 1), i, 0, 1);
    }
    Simulator::Run();
    EXPECT_EQ(nicLog,
              (std::vector<std::string>{"arrive 0", "fetch 1", "arrive 1", "fetch 2", "arrive 2"}));
    EXPECT_EQ(switchLog, (std::vector<std::string>{"arrive 0", "arrive 1", "arrive 2"}));
    reading.Push(NumberedFrame{3, &nicLog}, Simulator::Now().GetTimeStep(), 100, 3, 0, 0);
    Simulator::Run(); // (alone in flight: nothing fetched ahead of it)
    EXPECT_EQ(nicLog.back(), "arrive 3");
    EXPECT_EQ(nicLog.size(), 6u);
}

TEST_F(CanonicalSchedulerTest, AFrameTheQueueNamesNoEgressForNamesWhatItsOwnerReads)
{
    // A port whose frames are not read (a switch's) names, for a frame alone in flight, the
    // span its owner gave Bind (a switch's forwarding fields); for a frame behind another, what
    // the port named once the one before it arrived (the egress port), if anything; and the
    // owner's span again for the next frame alone. A port that reads its frames names neither.
    alignas(64) static const char lines[4 * 64] = {};
    const auto span = CanonicalScheduler::SpanHint(lines, 4);
    const auto egress = CanonicalScheduler::SpanHint(lines + 64, 2);
    HintedPort port;
    ArrivalQueue<HintedPort, NumberedFrame, &HintedPort::Arrive, &HintedPort::NextHint> queue;
    queue.Bind(&port, nullptr, nullptr, false, span);
    const auto last = [&queue]() { return queue.Hints()[CanonicalScheduler::HINTS - 1]; };
    queue.Push(NumberedFrame{0}, 0, 100, 0, 0, 0);
    EXPECT_EQ(last(), span);
    queue.Push(NumberedFrame{1}, 0, 200, 1, 0, 0);
    port.hint = egress;
    std::vector<const void*> named;
    Simulator::Schedule(TimeStep(150), [&]() { named.push_back(last()); });
    Simulator::Run();
    EXPECT_EQ(named, (std::vector<const void*>{egress}));
    EXPECT_EQ(port.arrived, (std::vector<int>{0, 1}));
    queue.Push(NumberedFrame{2}, Simulator::Now().GetTimeStep(), 100, 2, 0, 0); // (alone again)
    EXPECT_EQ(last(), span);
    port.hint = nullptr;
    queue.Push(NumberedFrame{3}, Simulator::Now().GetTimeStep(), 200, 3, 0, 0);
    Simulator::Schedule(TimeStep(150), [&]() { named.push_back(last()); });
    Simulator::Run();
    EXPECT_EQ(named, (std::vector<const void*>{egress, span})); // (nothing named: the owner's)
    HintedPort reader;
    ArrivalQueue<HintedPort, NumberedFrame, &HintedPort::Arrive, &HintedPort::NextHint> reading;
    reading.Bind(&reader, nullptr, nullptr, true, span);
    reading.Push(NumberedFrame{0}, Simulator::Now().GetTimeStep(), 100, 0, 0, 0);
    EXPECT_EQ(reading.Hints()[CanonicalScheduler::HINTS - 1], nullptr); // (no packet to name)
    Simulator::Run();
}
