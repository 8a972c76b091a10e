/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The DCTCP-style window of a queue pair driven by ACKs, against values worked out by hand
// from Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, section 3.1, and RFC 8257
// section 3.3 (see dctcp-rdma-congestion-control.h).

#include "lone-queue-pair.h"

#include "ns3/core-module.h"
#include "ns3/dctcp-rdma-congestion-control.h"
#include "ns3/rdma-psn.h"
#include "ns3/rdma-queue-pair.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class DctcpRdmaTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        qp = test::LoneQueuePair(DataRate("25Gbps"));
        cc = CreateObject<DctcpRdmaCongestionControl>();
        qp->SetCongestionControl(cc);
    }

    void TearDown() override
    {
        qp->Dispose();
        Simulator::Destroy();
    }

    /**
     * One ACK with an 8 us RTT sample.
     * @param bytes newly acknowledged bytes
     * @param marked the ECN echo
     * @param endsWindow the ACK reaches the end of the current observation window (nothing is
     *        sent here, so the window ends at PSN 0: PSN 0 reaches it, the PSN before does not)
     */
    void Ack(uint32_t bytes, bool marked, bool endsWindow)
    {
        const uint32_t psn = endsWindow ? 0 : rdma::PsnAdd(0, rdma::PSN_MASK);
        RdmaAckInfo info{bytes, psn, MicroSeconds(8), marked, nullptr};
        cc->OnAck(qp, info);
    }

    Ptr<RdmaQueuePair> qp;
    Ptr<DctcpRdmaCongestionControl> cc;
};

} // namespace

TEST_F(DctcpRdmaTest, AlphaAndWindowPerObservationWindow)
{
    // g = 1/16, alpha starts at 1 (RFC 8257), MTU 1024. The window starts at the
    // bandwidth-delay product of the first RTT sample: 25 Gb/s x 8 us / 8 = 25000 bytes.
    // Per window of data: F = marked bytes / acknowledged bytes; alpha := (1 - g) alpha + g F;
    // if any byte was marked W := W (1 - alpha / 2), else W := W + MTU. (Windows are whole
    // bytes, truncated: compared within a byte.)
    EXPECT_EQ(qp->GetWindow(), 0u); // no window before the first RTT
    Ack(10000, false, false);
    EXPECT_NEAR(qp->GetWindow(), 25000, 1);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1);
    Ack(10000, true, false); // within the window: counted, no reaction yet
    EXPECT_NEAR(qp->GetWindow(), 25000, 1);
    // End of the first window: 40000 bytes, 10000 marked: F = 0.25;
    // alpha = 15/16 + 0.25/16 = 0.953125; W = 25000 x (1 - 0.4765625) = 13085.94.
    Ack(20000, false, true);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 0.953125);
    EXPECT_NEAR(qp->GetWindow(), 13085.94, 1);
    // A window without marks: alpha = 15/16 x 0.953125 = 0.8935546875; W + 1024 = 14109.94.
    Ack(8000, false, true);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 0.8935546875);
    EXPECT_NEAR(qp->GetWindow(), 14109.94, 1);
    // A window all marked: F = 1: alpha = 15/16 x 0.8935546875 + 1/16 = 0.90020751953125;
    // W = 14109.94 x (1 - 0.450103759765625) = 7759.00.
    Ack(8000, true, true);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 0.90020751953125);
    EXPECT_NEAR(qp->GetWindow(), 7759.00, 1);
    // 60 windows without marks: alpha = 0.90020751953125 x (15/16)^60 = 0.0187; one marked
    // window then cuts by alpha / 2 only: one cut per window however many bytes are marked.
    for (int i = 0; i < 60; ++i)
    {
        Ack(8000, false, true);
    }
    const double alpha = 0.90020751953125 * std::pow(15.0 / 16, 60);
    EXPECT_NEAR(cc->GetAlpha(), alpha, 1e-12);
    const double w = 7759.001581192017 + 60 * 1024;
    EXPECT_NEAR(qp->GetWindow(), w, 1);
    Ack(4000, true, false);
    Ack(4000, true, false);
    Ack(8000, false, true); // F = 0.5
    const double alpha2 = 15.0 / 16 * alpha + 0.5 / 16;
    EXPECT_NEAR(cc->GetAlpha(), alpha2, 1e-12);
    EXPECT_NEAR(qp->GetWindow(), w * (1 - alpha2 / 2), 1);
}

TEST_F(DctcpRdmaTest, WindowNeverBelowOneMtu)
{
    Ack(1000, true, false);
    for (int i = 0; i < 50; ++i)
    {
        Ack(1000, true, true); // every window fully marked: alpha -> 1, W halves each time
    }
    EXPECT_EQ(qp->GetWindow(), 1024u);
}
