/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iwarp-socket.h"

#include "iwarp-ddp-header.h"
#include "iwarp-read-request-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/buffer.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-tx-buffer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IwarpSocket");

NS_OBJECT_ENSURE_REGISTERED(IwarpSocket);

namespace
{

/// Bytes of a start-up frame before its private data: key (16), flags, Rev, PD_Length (2).
constexpr uint32_t STARTUP_HEADER = 20;
/// The most private data a start-up frame may carry (RFC 5044).
constexpr uint32_t MAX_PRIVATE_DATA = 512;

/// A header's bytes (through a Buffer: no Packet for each FPDU).
template <typename H>
std::vector<uint8_t>
Bytes(const H& header)
{
    Buffer b;
    b.AddAtStart(header.GetSerializedSize());
    header.Serialize(b.Begin());
    std::vector<uint8_t> out(b.GetSize());
    b.CopyData(out.data(), out.size());
    return out;
}

/// Parse a header from the front of some bytes (the caller checked there are enough).
template <typename H>
H
Parse(const uint8_t* data, uint32_t size)
{
    Buffer b;
    b.AddAtStart(size);
    b.Begin().Write(data, size);
    H header;
    header.Deserialize(b.Begin());
    return header;
}

bool
IsTaggedOpcode(uint8_t opcode)
{
    return opcode == IwarpDdpHeader::RDMA_WRITE || opcode == IwarpDdpHeader::RDMA_READ_RESPONSE;
}

} // namespace

TypeId
IwarpSocket::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IwarpSocket")
            .SetParent<Object>()
            .SetGroupName("Interconnect")
            .AddConstructor<IwarpSocket>()
            .AddAttribute("Markers",
                          "Ask the peer to put MPA markers (every 512 octets, RFC 5044) on the "
                          "stream this end receives: the M flag of this end's start-up frame.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IwarpSocket::m_wantMarkers),
                          MakeBooleanChecker())
            .AddAttribute("Crc",
                          "Ask for CRC32c on every FPDU: the C flag of this end's start-up frame. "
                          "CRCs are used in both directions if either end asks (RFC 5044).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&IwarpSocket::m_wantCrc),
                          MakeBooleanChecker())
            .AddAttribute("Stag",
                          "The STag of this end's buffer, sent to the peer as MPA private data. "
                          "0: node id (upper 16 bits) and local TCP port (lower 16 bits).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IwarpSocket::m_stag),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Tos",
                          "IP TOS byte of the TCP connection's packets. The fabric maps DSCP "
                          "(TOS >> 2) / 8 to the priority: keep TCP on a lossy one (default 0).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IwarpSocket::m_tos),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("Completion",
                            "A work request completed.",
                            MakeTraceSourceAccessor(&IwarpSocket::m_completionTrace),
                            "ns3::RdmaQueuePair::CompletionTracedCallback")
            .AddTraceSource("Terminate",
                            "The connection ended in error: the reason, and whether this end "
                            "found it (else the peer's Terminate or TCP reported it).",
                            MakeTraceSourceAccessor(&IwarpSocket::m_terminateTrace),
                            "ns3::IwarpSocket::TerminateTracedCallback")
            .AddTraceSource("MessageReceived",
                            "An RDMA Write or a Send was placed here in full.",
                            MakeTraceSourceAccessor(&IwarpSocket::m_messageTrace),
                            "ns3::IwarpSocket::MessageTracedCallback")
            .AddTraceSource("SolicitedEvent",
                            "A Send with Solicited Event was placed here: its bytes.",
                            MakeTraceSourceAccessor(&IwarpSocket::m_solicitedTrace),
                            "ns3::IwarpSocket::SolicitedTracedCallback")
            .AddTraceSource("Established",
                            "The MPA exchange finished: full operation begins.",
                            MakeTraceSourceAccessor(&IwarpSocket::m_establishedTrace),
                            "ns3::TracedCallback::Void");
    return tid;
}

IwarpSocket::IwarpSocket()
    : m_wantMarkers(false),
      m_wantCrc(true),
      m_stag(0),
      m_tos(0),
      m_state(IDLE),
      m_initiator(false),
      m_emss(0),
      m_txMarkers(false),
      m_crc(true),
      m_peerStag(0),
      m_peerSentFirst(false),
      m_written(0),
      m_acked(0),
      m_sequencesKnown(false),
      m_requestBase(0),
      m_nextId(0),
      m_readBytes(0),
      m_writeTo(0),
      m_readTo(0),
      m_sendMsn(1),
      m_readMsn(1),
      m_expectWriteTo(0),
      m_expectReadTo(0),
      m_expectSendMsn(1),
      m_expectSendMo(0),
      m_expectReadMsn(1),
      m_writeBytes(0),
      m_fpdusSent(0),
      m_unaligned(0),
      m_fpdusReceived(0),
      m_bytesPlaced(0),
      m_placementErrors(0),
      m_inTrySend(false),
      m_waitingForTcp(false),
      m_stagValid(true)
{
    NS_LOG_FUNCTION(this);
}

void
IwarpSocket::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_resumeEvent.Cancel();
    if (m_socket)
    {
        // The socket lives on in TCP; it must not call back into a disposed object.
        m_socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        m_socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                    MakeNullCallback<void, Ptr<Socket>>());
        m_socket->TraceDisconnectWithoutContext("NextTxSequence",
                                                MakeCallback(&IwarpSocket::NextTxSequence, this));
        m_socket->TraceDisconnectWithoutContext("HighestRxAck",
                                                MakeCallback(&IwarpSocket::HighestRxAck, this));
        m_socket = nullptr;
    }
    m_requests.clear();
    m_out.clear();
    Object::DoDispose();
}

void
IwarpSocket::Connect(Ptr<Node> node, const Address& peer)
{
    NS_LOG_FUNCTION(this << node << peer);
    Connect(Socket::CreateSocket(node, TcpSocketFactory::GetTypeId()), peer);
}

void
IwarpSocket::Connect(Ptr<Socket> socket, const Address& peer)
{
    NS_LOG_FUNCTION(this << socket << peer);
    NS_ABORT_MSG_IF(m_state != IDLE, "IwarpSocket::Connect: the socket is already in use");
    NS_ABORT_MSG_UNLESS(InetSocketAddress::IsMatchingType(peer),
                        "IwarpSocket::Connect: the peer must be an InetSocketAddress");
    m_initiator = true;
    socket->Bind();
    AttachSocket(socket);
    socket->SetConnectCallback(MakeCallback(&IwarpSocket::ConnectionSucceeded, this),
                               MakeCallback(&IwarpSocket::ConnectionFailed, this));
    m_state = TCP_CONNECTING;
    socket->Connect(peer);
    // After Connect: up to ns-3.40 TcpSocketBase::Connect sets the TOS from the peer's
    // InetSocketAddress (0 here), which would put every segment on priority 0 whatever Tos says.
    socket->SetIpTos(m_tos);
}

void
IwarpSocket::Accept(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    NS_ABORT_MSG_IF(m_state != IDLE, "IwarpSocket::Accept: the socket is already in use");
    m_initiator = false;
    AttachSocket(socket);
    socket->SetIpTos(m_tos);
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
    m_txBase = tcp->GetTxBuffer()->TailSequence();
    m_nextTx = m_txBase;
    m_sequencesKnown = true;
    m_state = MPA_LISTENING;
    if (socket->GetRxAvailable() > 0)
    {
        DataReceived(socket);
    }
}

void
IwarpSocket::AttachSocket(Ptr<Socket> socket)
{
    NS_ABORT_MSG_UNLESS(DynamicCast<TcpSocketBase>(socket),
                        "IwarpSocket: the socket must be an ns-3 TCP socket");
    m_socket = socket;
    UintegerValue segment;
    socket->GetAttribute("SegmentSize", segment);
    m_emss = static_cast<uint32_t>(segment.Get());
    NS_ABORT_MSG_IF(m_emss < 128,
                    "IwarpSocket: TCP SegmentSize " << m_emss << " is below the 128 bytes an "
                                                    << "FPDU with its headers needs");
    socket->SetRecvCallback(MakeCallback(&IwarpSocket::DataReceived, this));
    socket->SetSendCallback(MakeCallback(&IwarpSocket::SendSpace, this));
    socket->SetCloseCallbacks(MakeCallback(&IwarpSocket::NormalClose, this),
                              MakeCallback(&IwarpSocket::ErrorClose, this));
    const bool traced =
        socket->TraceConnectWithoutContext("NextTxSequence",
                                           MakeCallback(&IwarpSocket::NextTxSequence, this)) &&
        socket->TraceConnectWithoutContext("HighestRxAck",
                                           MakeCallback(&IwarpSocket::HighestRxAck, this));
    NS_ABORT_MSG_UNLESS(traced, "IwarpSocket: the TCP socket lacks NextTxSequence/HighestRxAck");
    if (m_stag == 0)
    {
        // Initiators are named by their own port, responders by the initiator's.
        Address name;
        if (m_initiator)
        {
            socket->GetSockName(name);
        }
        else
        {
            socket->GetPeerName(name);
        }
        const uint16_t port = InetSocketAddress::IsMatchingType(name)
                                  ? InetSocketAddress::ConvertFrom(name).GetPort()
                                  : 0;
        m_stag = (socket->GetNode()->GetId() << 16) | (m_initiator ? port : port ^ 0x8000);
    }
}

void
IwarpSocket::ConnectionSucceeded(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(socket);
    m_txBase = tcp->GetTxBuffer()->TailSequence();
    m_nextTx = m_txBase;
    m_sequencesKnown = true;
    const std::vector<uint8_t> stag = {static_cast<uint8_t>(m_stag >> 24),
                                       static_cast<uint8_t>(m_stag >> 16),
                                       static_cast<uint8_t>(m_stag >> 8),
                                       static_cast<uint8_t>(m_stag)};
    m_state = MPA_REQUESTED;
    Write(IwarpMpa::StartupFrame(true, m_wantMarkers, m_wantCrc, false, stag));
}

void
IwarpSocket::ConnectionFailed(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Stop("TCP connection failed", true);
}

void
IwarpSocket::NormalClose(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Stop("TCP connection closed by the peer", false);
}

void
IwarpSocket::ErrorClose(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Stop("TCP connection reset or timed out", false);
}

void
IwarpSocket::NextTxSequence(SequenceNumber32 /* oldValue */, SequenceNumber32 newValue)
{
    m_nextTx = newValue;
    if (m_waitingForTcp && m_txBase + static_cast<uint32_t>(m_written) == newValue)
    {
        // TCP sent the short segment; frame more once it is done sending.
        m_waitingForTcp = false;
        m_resumeEvent = Simulator::ScheduleNow(&IwarpSocket::TrySend, this);
    }
}

uint64_t
IwarpSocket::TxOffset(SequenceNumber32 seq) const
{
    const SequenceNumber32 tail = m_txBase + static_cast<uint32_t>(m_written);
    const int64_t behind = tail - seq;
    return m_written - static_cast<uint64_t>(std::max<int64_t>(0, behind));
}

void
IwarpSocket::HighestRxAck(SequenceNumber32 /* oldValue */, SequenceNumber32 newValue)
{
    if (!m_sequencesKnown)
    {
        return;
    }
    m_acked = std::max(m_acked, TxOffset(newValue));
    CompleteRequests();
}

void
IwarpSocket::SendSpace(Ptr<Socket> /* socket */, uint32_t /* available */)
{
    TrySend();
}

void
IwarpSocket::Write(const std::vector<uint8_t>& bytes)
{
    const int sent = m_socket->Send(Create<Packet>(bytes.data(), bytes.size()));
    NS_ABORT_MSG_IF(sent != static_cast<int>(bytes.size()),
                    "IwarpSocket: TCP took " << sent << " of " << bytes.size() << " bytes");
    m_written += bytes.size();
}

void
IwarpSocket::DataReceived(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Ptr<Packet> packet;
    std::vector<uint8_t> bytes;
    while ((packet = socket->Recv()))
    {
        if (m_state == TERMINATED || packet->GetSize() == 0)
        {
            continue;
        }
        bytes.resize(packet->GetSize());
        packet->CopyData(bytes.data(), bytes.size());
        if (m_state == MPA_REQUESTED || m_state == MPA_LISTENING)
        {
            m_startup.insert(m_startup.end(), bytes.begin(), bytes.end());
            ReceiveStartup();
            continue;
        }
        if (m_state != ESTABLISHED)
        {
            continue;
        }
        if (!Deframe(bytes))
        {
            return;
        }
    }
    TrySend();
}

bool
IwarpSocket::Deframe(const std::vector<uint8_t>& bytes)
{
    std::vector<std::vector<uint8_t>> ulpdus;
    std::string error;
    const bool ok = m_rxMpa->Receive(bytes, ulpdus, error);
    for (const auto& ulpdu : ulpdus)
    {
        if (!ReceiveUlpdu(ulpdu))
        {
            return false;
        }
    }
    if (!ok)
    {
        // RFC 5044: 0x02 CRC error, 0x03 marker and ULPDU length mismatch.
        Fail(IwarpTerminateHeader::LLP,
             0,
             m_rxMpa->GetRxError() == IwarpMpa::RX_CRC ? 0x02 : 0x03,
             error);
    }
    return ok;
}

void
IwarpSocket::ReceiveStartup()
{
    if (m_startup.size() < STARTUP_HEADER)
    {
        return;
    }
    const uint32_t pd = (uint32_t(m_startup[18]) << 8) | m_startup[19];
    if (pd > MAX_PRIVATE_DATA)
    {
        Fail(IwarpTerminateHeader::LLP,
             0,
             0x04,
             "MPA start-up frame with PD_Length " + std::to_string(pd) + " (at most 512)");
        return;
    }
    if (m_startup.size() < STARTUP_HEADER + pd)
    {
        return;
    }
    const std::vector<uint8_t> frame(m_startup.begin(), m_startup.begin() + STARTUP_HEADER + pd);
    const std::vector<uint8_t> rest(m_startup.begin() + STARTUP_HEADER + pd, m_startup.end());
    m_startup.clear();
    IwarpMpa::Startup s;
    std::string error;
    if (!IwarpMpa::ParseStartupFrame(frame, s, error))
    {
        Fail(IwarpTerminateHeader::LLP, 0, 0x04, error);
        return;
    }
    if (s.request == m_initiator || s.revision != 1 || s.privateData.size() != 4)
    {
        Fail(IwarpTerminateHeader::LLP,
             0,
             0x04,
             std::string("expected an MPA ") + (m_initiator ? "reply" : "request") +
                 " of revision 1 with a 4-byte STag as private data, got a " +
                 (s.request ? "request" : "reply") + " of revision " + std::to_string(s.revision) +
                 " with " + std::to_string(s.privateData.size()) + " bytes of private data");
        return;
    }
    if (s.reject)
    {
        Stop("the peer rejected the MPA connection", false);
        return;
    }
    m_peerStag = (uint32_t(s.privateData[0]) << 24) | (uint32_t(s.privateData[1]) << 16) |
                 (uint32_t(s.privateData[2]) << 8) | s.privateData[3];
    const bool crc = m_wantCrc || s.crc;
    if (!m_initiator)
    {
        const std::vector<uint8_t> stag = {static_cast<uint8_t>(m_stag >> 24),
                                           static_cast<uint8_t>(m_stag >> 16),
                                           static_cast<uint8_t>(m_stag >> 8),
                                           static_cast<uint8_t>(m_stag)};
        Write(IwarpMpa::StartupFrame(false, m_wantMarkers, m_wantCrc, false, stag));
    }
    Establish(s.markers, crc);
    if (!rest.empty())
    {
        Deframe(rest);
    }
}

void
IwarpSocket::Establish(bool txMarkers, bool crc)
{
    NS_LOG_FUNCTION(this << txMarkers << crc);
    m_txMarkers = txMarkers;
    m_crc = crc;
    m_txMpa = std::make_unique<IwarpMpa>(txMarkers, crc);
    m_rxMpa = std::make_unique<IwarpMpa>(m_wantMarkers, crc);
    m_state = ESTABLISHED;
    if (m_initiator)
    {
        // The initiator speaks first: a zero-length RDMA Write lets the responder send.
        OutMessage rtr;
        rtr.opcode = IwarpDdpHeader::RDMA_WRITE;
        rtr.to = 0; // ahead of any Write posted while connecting, whose offsets start at 0
        m_out.push_front(rtr);
    }
    m_establishedTrace();
    TrySend();
}

uint64_t
IwarpSocket::Post(RdmaVerb verb, uint64_t bytes, RdmaQueuePair::CompletionCallback done)
{
    return Enqueue(verb, bytes, done, IwarpDdpHeader::SEND, 0);
}

uint64_t
IwarpSocket::Enqueue(RdmaVerb verb,
                     uint64_t bytes,
                     RdmaQueuePair::CompletionCallback done,
                     uint8_t sendOpcode,
                     uint32_t invalidate)
{
    NS_LOG_FUNCTION(this << RdmaVerbName(verb) << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "IwarpSocket::Post: a message of 0 bytes");
    NS_ABORT_MSG_IF(verb == RdmaVerb::READ && bytes > std::numeric_limits<uint32_t>::max(),
                    "IwarpSocket::Post: a READ of "
                        << bytes << " bytes (RDMA Read Message Size is 32 bits)");
    Request r;
    r.id = m_nextId++;
    r.verb = verb;
    r.bytes = bytes;
    r.posted = Simulator::Now();
    r.done = done;
    m_requests.push_back(r);
    if (m_state == TERMINATED)
    {
        NS_LOG_WARN("IwarpSocket: posted on a terminated connection; flushed");
        return r.id;
    }
    OutMessage m;
    if (verb == RdmaVerb::WRITE)
    {
        m.opcode = IwarpDdpHeader::RDMA_WRITE;
        m.bytes = bytes;
        m.to = m_writeTo;
        m_writeTo += bytes;
        m.request = static_cast<int64_t>(r.id);
    }
    else if (verb == RdmaVerb::SEND)
    {
        m.opcode = sendOpcode;
        m.invalidate = invalidate;
        m.bytes = bytes;
        m.qn = IwarpDdpHeader::QN_SEND;
        m.msn = m_sendMsn++;
        m.request = static_cast<int64_t>(r.id);
    }
    else
    {
        m.readRequest.SetSinkOffset(m_readTo);
        m.readRequest.SetSize(static_cast<uint32_t>(bytes));
        m.readRequest.SetSourceOffset(m_readTo);
        m_readTo += bytes;
        m.opcode = IwarpDdpHeader::RDMA_READ_REQUEST;
        m.qn = IwarpDdpHeader::QN_READ_REQUEST;
        m.msn = m_readMsn++;
        // Its STags go in when it is framed: the peer's is known once the connection is up.
        m.control.resize(IwarpReadRequestHeader::SIZE);
        m_reads.push_back(r.id);
    }
    m_out.push_back(m);
    TrySend();
    return r.id;
}

uint64_t
IwarpSocket::PostSend(uint64_t bytes,
                      bool solicited,
                      uint32_t invalidateStag,
                      RdmaQueuePair::CompletionCallback done)
{
    const uint8_t opcode =
        invalidateStag != 0
            ? (solicited ? IwarpDdpHeader::SEND_SE_INVALIDATE : IwarpDdpHeader::SEND_INVALIDATE)
            : (solicited ? IwarpDdpHeader::SEND_SE : IwarpDdpHeader::SEND);
    return Enqueue(RdmaVerb::SEND, bytes, done, opcode, invalidateStag);
}

uint32_t
IwarpSocket::GetPeerStag() const
{
    return m_peerStag;
}

uint32_t
IwarpSocket::GetStag() const
{
    return m_stag;
}

void
IwarpSocket::TrySend()
{
    if (m_state != ESTABLISHED || (!m_initiator && !m_peerSentFirst) || m_inTrySend)
    {
        return;
    }
    m_inTrySend = true;
    while (!m_out.empty() && m_state == ESTABLISHED)
    {
        OutMessage& m = m_out.front();
        const bool tagged = IsTaggedOpcode(m.opcode);
        const uint32_t header =
            tagged ? IwarpDdpHeader::TAGGED_SIZE : IwarpDdpHeader::UNTAGGED_SIZE;
        if (m.opcode == IwarpDdpHeader::RDMA_READ_REQUEST)
        {
            m.readRequest.SetSinkStag(m_stag);
            m.readRequest.SetSourceStag(m_peerStag);
            m.control = Bytes(m.readRequest);
        }
        const uint64_t remaining = m.bytes - m.sent;
        const uint32_t need =
            header + static_cast<uint32_t>(m.control.size()) + (remaining > 0 ? 1 : 0);
        // TCP cuts full segments from its next unsent byte: end this FPDU where one ends.
        const SequenceNumber32 tail = m_txBase + static_cast<uint32_t>(m_written);
        const uint32_t unsent = static_cast<uint32_t>(std::max<int32_t>(0, tail - m_nextTx));
        const uint32_t used = unsent % m_emss;
        const uint32_t mulpdu = IwarpMpa::Mulpdu(m_emss, m_txMarkers);
        uint32_t maxUlpdu = std::min(mulpdu, m_txMpa->MaxUlpdu(m_emss - used));
        if (maxUlpdu < need)
        {
            // Too little room before TCP's next cut (with markers, a MULPDU-sized FPDU can end
            // 4 bytes short of a segment): wait until TCP has sent that short segment.
            m_waitingForTcp = true;
            break;
        }
        NS_ABORT_MSG_IF(maxUlpdu < need,
                        "IwarpSocket: MULPDU " << mulpdu << " cannot hold a " << need
                                               << "-byte segment");
        uint32_t payload = static_cast<uint32_t>(
            std::min<uint64_t>(remaining, maxUlpdu - header - m.control.size()));
        if (m_txMarkers && payload > 4 && payload < remaining &&
            (m_txMpa->GetTxOffset() +
             m_txMpa->FpduLength(header + static_cast<uint32_t>(m.control.size()) + payload)) %
                    IwarpMpa::MARKER_INTERVAL ==
                0)
        {
            // Do not end a segment where a marker falls: RFC 5044 puts that marker at the start
            // of the next FPDU, Wireshark's dissector expects it at the end of this segment.
            // Four bytes less here and the marker lands inside the next FPDU, clear to both.
            payload -= 4;
        }
        const uint32_t ulpduLength = header + static_cast<uint32_t>(m.control.size()) + payload;
        const uint32_t fpduLength = m_txMpa->FpduLength(ulpduLength);
        if (m_socket->GetTxAvailable() < fpduLength)
        {
            break;
        }
        const bool last = m.sent + payload == m.bytes;
        IwarpDdpHeader ddp;
        ddp.SetTagged(tagged);
        ddp.SetLast(last);
        ddp.SetOpcode(static_cast<IwarpDdpHeader::Opcode>(m.opcode));
        uint64_t key;
        uint64_t offset;
        if (tagged)
        {
            const uint32_t stag = m.opcode == IwarpDdpHeader::RDMA_WRITE ? m_peerStag : m.stag;
            ddp.SetStag(stag);
            ddp.SetTaggedOffset(m.to + m.sent);
            key = stag;
            offset = m.to + m.sent;
        }
        else
        {
            ddp.SetQueueNumber(m.qn);
            ddp.SetInvalidateStag(m.invalidate);
            ddp.SetMsn(m.msn);
            ddp.SetMessageOffset(static_cast<uint32_t>(m.sent));
            key = m.msn;
            offset = m.sent;
        }
        std::vector<uint8_t> ulpdu = Bytes(ddp);
        ulpdu.reserve(ulpduLength);
        ulpdu.insert(ulpdu.end(), m.control.begin(), m.control.end());
        const std::size_t at = ulpdu.size();
        ulpdu.resize(at + payload);
        uint8_t* data = ulpdu.data() + at;
        for (uint32_t i = 0; i < payload; ++i)
        {
            data[i] = PatternByte(key, offset + i); // a plain loop the compiler vectorizes
        }
        if (used + fpduLength > m_emss)
        {
            ++m_unaligned;
        }
        Write(m_txMpa->Frame(ulpdu));
        ++m_fpdusSent;
        m.sent += payload;
        if (last)
        {
            if (m.request >= 0)
            {
                const uint64_t index = static_cast<uint64_t>(m.request) - m_requestBase;
                NS_ASSERT(index < m_requests.size());
                m_requests[index].streamEnd = m_written;
            }
            m_out.pop_front();
        }
    }
    m_inTrySend = false;
}

bool
IwarpSocket::ReceiveUlpdu(const std::vector<uint8_t>& ulpdu)
{
    const bool tagged = (ulpdu[0] & 0x80) != 0;
    const uint32_t header = tagged ? IwarpDdpHeader::TAGGED_SIZE : IwarpDdpHeader::UNTAGGED_SIZE;
    if (ulpdu.size() < header)
    {
        Fail(IwarpTerminateHeader::DDP,
             0,
             0x00,
             "a ULPDU of " + std::to_string(ulpdu.size()) + " bytes is shorter than its " +
                 std::to_string(header) + "-byte DDP header");
        return false;
    }
    if ((ulpdu[0] & 0x03) != 1)
    {
        Fail(IwarpTerminateHeader::DDP,
             tagged ? 1 : 2,
             tagged ? 0x04 : 0x06,
             "DDP version " + std::to_string(ulpdu[0] & 0x03) + " (expected 1)");
        return false;
    }
    if ((ulpdu[1] >> 6) != 1)
    {
        Fail(IwarpTerminateHeader::RDMAP,
             2,
             0x05,
             "RDMAP version " + std::to_string(ulpdu[1] >> 6) + " (expected 1)");
        return false;
    }
    const IwarpDdpHeader h = Parse<IwarpDdpHeader>(ulpdu.data(), header);
    const uint8_t* data = ulpdu.data() + header;
    const uint32_t size = static_cast<uint32_t>(ulpdu.size()) - header;
    const uint8_t opcode = h.GetOpcode();
    ++m_fpdusReceived;
    m_peerSentFirst = true;
    if (tagged != IsTaggedOpcode(opcode) || opcode > IwarpDdpHeader::TERMINATE)
    {
        Fail(IwarpTerminateHeader::RDMAP,
             2,
             0x06,
             "RDMAP opcode " + std::to_string(opcode) + " in a " +
                 (tagged ? "tagged" : "untagged") + " segment");
        return false;
    }
    if (tagged)
    {
        const bool write = opcode == IwarpDdpHeader::RDMA_WRITE;
        uint64_t& expected = write ? m_expectWriteTo : m_expectReadTo;
        if (h.GetStag() != m_stag || !m_stagValid)
        {
            Fail(IwarpTerminateHeader::DDP,
                 1,
                 0x00,
                 "STag " + std::to_string(h.GetStag()) +
                     (m_stagValid ? " (this end's buffer is " + std::to_string(m_stag) + ")"
                                  : " (invalidated by the peer's Send with Invalidate)"));
            return false;
        }
        if (h.GetTaggedOffset() != expected)
        {
            Fail(IwarpTerminateHeader::DDP,
                 1,
                 0x01,
                 "tagged offset " + std::to_string(h.GetTaggedOffset()) + " where " +
                     std::to_string(expected) + " comes next");
            return false;
        }
        if (!write && m_reads.empty())
        {
            Fail(IwarpTerminateHeader::RDMAP, 2, 0x06, "a Read Response without a Read Request");
            return false;
        }
        Place(h.GetStag(), h.GetTaggedOffset(), data, size);
        expected += size;
        if (write)
        {
            m_writeBytes += size;
            if (h.IsLast())
            {
                if (m_writeBytes > 0)
                {
                    m_messageTrace(RdmaVerb::WRITE, m_writeBytes);
                }
                m_writeBytes = 0;
            }
            return true;
        }
        m_readBytes += size;
        Request& r = m_requests[m_reads.front() - m_requestBase];
        if (m_readBytes > r.bytes || (h.IsLast() && m_readBytes != r.bytes))
        {
            Fail(IwarpTerminateHeader::DDP,
                 1,
                 0x01,
                 "Read Responses of " + std::to_string(m_readBytes) + " bytes for a READ of " +
                     std::to_string(r.bytes));
            return false;
        }
        if (h.IsLast())
        {
            r.readDone = true;
            r.readDoneAt = Simulator::Now();
            m_reads.pop_front();
            m_readBytes = 0;
            CompleteRequests();
        }
        return true;
    }
    const uint32_t qn = opcode == IwarpDdpHeader::RDMA_READ_REQUEST
                            ? IwarpDdpHeader::QN_READ_REQUEST
                        : opcode == IwarpDdpHeader::TERMINATE ? IwarpDdpHeader::QN_TERMINATE
                                                              : IwarpDdpHeader::QN_SEND;
    if (h.GetQueueNumber() != qn)
    {
        Fail(IwarpTerminateHeader::DDP,
             2,
             0x01,
             "queue number " + std::to_string(h.GetQueueNumber()) + " for RDMAP opcode " +
                 std::to_string(opcode) + " (expected " + std::to_string(qn) + ")");
        return false;
    }
    if (opcode == IwarpDdpHeader::TERMINATE)
    {
        std::string reason = "the peer sent a Terminate";
        if (size >= IwarpTerminateHeader::SIZE)
        {
            reason += ": " + Parse<IwarpTerminateHeader>(data, size).Describe();
        }
        Stop(reason, false);
        return false;
    }
    if (opcode == IwarpDdpHeader::RDMA_READ_REQUEST)
    {
        if (h.GetMsn() != m_expectReadMsn || size < IwarpReadRequestHeader::SIZE || !h.IsLast())
        {
            Fail(IwarpTerminateHeader::DDP,
                 2,
                 0x03,
                 "Read Request MSN " + std::to_string(h.GetMsn()) + " of " + std::to_string(size) +
                     " bytes (expected MSN " + std::to_string(m_expectReadMsn) +
                     ", one 28-byte segment)");
            return false;
        }
        const auto rr = Parse<IwarpReadRequestHeader>(data, size);
        if (rr.GetSourceStag() != m_stag || !m_stagValid)
        {
            Fail(IwarpTerminateHeader::DDP,
                 1,
                 0x00,
                 "Read Request for STag " + std::to_string(rr.GetSourceStag()) +
                     " (this end's buffer is " + std::to_string(m_stag) + ")");
            return false;
        }
        ++m_expectReadMsn;
        if (rr.GetSize() > 0)
        {
            OutMessage m;
            m.opcode = IwarpDdpHeader::RDMA_READ_RESPONSE;
            m.bytes = rr.GetSize();
            m.stag = rr.GetSinkStag();
            m.to = rr.GetSinkOffset();
            m_out.push_back(m);
        }
        return true;
    }
    // Send and its variants.
    if (h.GetMsn() != m_expectSendMsn)
    {
        Fail(IwarpTerminateHeader::DDP,
             2,
             0x03,
             "Send MSN " + std::to_string(h.GetMsn()) + " (expected " +
                 std::to_string(m_expectSendMsn) + ")");
        return false;
    }
    if (h.GetMessageOffset() != m_expectSendMo)
    {
        Fail(IwarpTerminateHeader::DDP,
             2,
             0x04,
             "Send MO " + std::to_string(h.GetMessageOffset()) + " (expected " +
                 std::to_string(m_expectSendMo) + ")");
        return false;
    }
    Place(h.GetMsn(), h.GetMessageOffset(), data, size);
    m_expectSendMo += size;
    if (h.IsLast())
    {
        if (opcode == IwarpDdpHeader::SEND_INVALIDATE ||
            opcode == IwarpDdpHeader::SEND_SE_INVALIDATE)
        {
            if (h.GetInvalidateStag() != m_stag)
            {
                Fail(IwarpTerminateHeader::DDP,
                     1,
                     0x00,
                     "Send with Invalidate names STag " + std::to_string(h.GetInvalidateStag()) +
                         " (this end's buffer is " + std::to_string(m_stag) + ")");
                return false;
            }
            m_stagValid = false; // later Writes and Reads to it are errors
        }
        m_messageTrace(RdmaVerb::SEND, m_expectSendMo);
        if (opcode == IwarpDdpHeader::SEND_SE || opcode == IwarpDdpHeader::SEND_SE_INVALIDATE)
        {
            m_solicitedTrace(m_expectSendMo);
        }
        ++m_expectSendMsn;
        m_expectSendMo = 0;
    }
    return true;
}

void
IwarpSocket::Place(uint64_t key, uint64_t offset, const uint8_t* data, uint32_t size)
{
    uint64_t wrong = 0;
    for (uint32_t i = 0; i < size; ++i)
    {
        wrong += data[i] != PatternByte(key, offset + i);
    }
    m_placementErrors += wrong;
    m_bytesPlaced += size;
}

void
IwarpSocket::CompleteRequests()
{
    while (!m_requests.empty() && m_state != TERMINATED)
    {
        const Request& r = m_requests.front();
        const bool ready =
            r.verb == RdmaVerb::READ ? r.readDone : r.streamEnd > 0 && m_acked >= r.streamEnd;
        if (!ready)
        {
            return;
        }
        RdmaCompletion c;
        c.qpn = m_stag;
        c.id = r.id;
        c.verb = r.verb;
        c.bytes = r.bytes;
        c.posted = r.posted;
        c.completed = Simulator::Now();
        const RdmaQueuePair::CompletionCallback done = r.done;
        m_requests.pop_front();
        ++m_requestBase;
        m_completionTrace(c);
        if (!done.IsNull())
        {
            done(c);
        }
    }
}

void
IwarpSocket::Fail(IwarpTerminateHeader::Layer layer,
                  uint8_t etype,
                  uint8_t code,
                  const std::string& detail)
{
    const IwarpTerminateHeader terminate(layer, etype, code);
    if (m_state == ESTABLISHED && m_txMpa)
    {
        IwarpDdpHeader ddp;
        ddp.SetTagged(false);
        ddp.SetLast(true);
        ddp.SetOpcode(IwarpDdpHeader::TERMINATE);
        ddp.SetQueueNumber(IwarpDdpHeader::QN_TERMINATE);
        ddp.SetMsn(1);
        std::vector<uint8_t> ulpdu = Bytes(ddp);
        const std::vector<uint8_t> control = Bytes(terminate);
        ulpdu.insert(ulpdu.end(), control.begin(), control.end());
        if (m_socket->GetTxAvailable() >= m_txMpa->FpduLength(ulpdu.size()))
        {
            Write(m_txMpa->Frame(ulpdu));
            ++m_fpdusSent;
        }
        else
        {
            NS_LOG_WARN("IwarpSocket: no room in TCP's buffer for the Terminate message");
        }
    }
    Stop(terminate.Describe() + ": " + detail, true);
}

void
IwarpSocket::Stop(const std::string& reason, bool local)
{
    if (m_state == TERMINATED)
    {
        return;
    }
    NS_LOG_WARN("IwarpSocket " << m_stag << " terminated: " << reason);
    m_state = TERMINATED;
    m_terminateReason = reason;
    m_out.clear();
    m_terminateTrace(reason, local);
    if (m_socket)
    {
        m_socket->Close();
    }
}

IwarpSocket::State
IwarpSocket::GetState() const
{
    return m_state;
}

std::string
IwarpSocket::GetTerminateReason() const
{
    return m_terminateReason;
}

Ptr<Socket>
IwarpSocket::GetTcpSocket() const
{
    return m_socket;
}

uint32_t
IwarpSocket::GetEmss() const
{
    return m_emss;
}

uint32_t
IwarpSocket::GetMulpdu() const
{
    return m_txMpa ? IwarpMpa::Mulpdu(m_emss, m_txMarkers) : 0;
}

bool
IwarpSocket::GetTxMarkers() const
{
    return m_txMarkers;
}

bool
IwarpSocket::GetCrcEnabled() const
{
    return m_crc;
}

uint64_t
IwarpSocket::GetFpdusSent() const
{
    return m_fpdusSent;
}

uint64_t
IwarpSocket::GetUnalignedFpdus() const
{
    return m_unaligned;
}

uint64_t
IwarpSocket::GetFpdusReceived() const
{
    return m_fpdusReceived;
}

uint64_t
IwarpSocket::GetBytesPlaced() const
{
    return m_bytesPlaced;
}

uint64_t
IwarpSocket::GetPlacementErrors() const
{
    return m_placementErrors;
}

uint64_t
IwarpSocket::GetOutstanding() const
{
    return m_requests.size();
}

} // namespace ns3
