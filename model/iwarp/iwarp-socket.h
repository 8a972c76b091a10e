/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_SOCKET_H
#define IWARP_SOCKET_H

#include "iwarp-mpa.h"
#include "iwarp-read-request-header.h"
#include "iwarp-terminate-header.h"

#include "ns3/address.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/sequence-number.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Node;
class IwarpDdpHeader;

/**
 * @ingroup interconnect
 * @brief One end of an iWARP connection: RDMAP (RFC 5040) over DDP (RFC 5041) over MPA
 * (RFC 5044) over an ns-3 TcpSocket, with the verbs of RdmaQueuePair.
 *
 * The connection is an ordinary ns-3 TCP connection (any TcpSocketFactory socket and any of its
 * congestion controls: set the node's TcpL4Protocol "SocketType"). Once TCP connects, the
 * initiator sends the MPA request frame and the responder answers with the reply; each frame
 * carries the sender's M (markers wanted on the stream it receives) and C (CRC) flags and, as
 * private data, the STag of its buffer, so the peer can write into it and read from it.
 * The initiator sends the first FPDU (RFC 5044 section 7.1): a zero-length RDMA Write, as the
 * ready-to-receive message of RFC 6581, after which both ends may send.
 *
 * Post() takes RdmaQueuePair's verbs and gives the same RdmaCompletion:
 * - WRITE: tagged segments (RDMA Write) to the peer's STag, tagged offsets running on from the
 *   previous Write; complete when TCP has the last byte acknowledged;
 * - SEND: untagged segments on queue 0 with MSN and MO; complete the same way;
 * - READ: a Read Request (queue 1) naming this end's STag as the sink; the peer answers with
 *   tagged Read Responses; complete when the last is placed.
 * Completions come in the order of posting, as a send queue's do.
 *
 * Every DDP segment is one FPDU whose ULPDU is at most MULPDU (from the connection's segment
 * size), and FPDUs are cut so that each ends where TCP will end a segment: the socket knows how
 * much of what it was given TCP has not sent yet, and TCP cuts full segments from there.
 * Retransmissions may cut differently; the receiver does not depend on alignment.
 *
 * The receiver checks everything: CRC, markers, lengths, DDP and RDMAP versions, STags, tagged
 * offsets in order, queue numbers, MSNs and MOs. Payload bytes follow a known pattern that the
 * receiver verifies byte by byte (GetPlacementErrors). On any error it sends a Terminate message
 * naming layer, type and code, stops, closes TCP and fires the Terminate trace with a readable
 * reason; the peer does the same on receiving the Terminate. Pending work requests are then
 * flushed (never completed); nothing aborts the simulation.
 */
class IwarpSocket : public Object
{
  public:
    /// Where the connection is.
    enum State
    {
        IDLE,           //!< not connected
        TCP_CONNECTING, //!< TCP handshake under way (initiator)
        MPA_REQUESTED,  //!< request sent, waiting for the reply (initiator)
        MPA_LISTENING,  //!< TCP accepted, waiting for the request (responder)
        ESTABLISHED,    //!< full operation
        TERMINATED      //!< an error ended it, or TCP closed
    };

    /// Callback signature of the Terminate trace: the reason, and whether this end detected it.
    typedef void (*TerminateTracedCallback)(const std::string& reason, bool local);
    /// Callback signature of the MessageReceived trace: verb and bytes of a message placed here.
    typedef void (*MessageTracedCallback)(RdmaVerb verb, uint64_t bytes);
    /// Callback signature of the SolicitedEvent trace: bytes of the Send placed here.
    typedef void (*SolicitedTracedCallback)(uint64_t bytes);

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IwarpSocket();

    /**
     * Open a TCP connection to a listening IwarpListener (or any socket bound to its port),
     * then run the MPA exchange as the initiator.
     * @param node this end's node (with an Internet stack)
     * @param peer the responder's InetSocketAddress
     */
    void Connect(Ptr<Node> node, const Address& peer);

    /**
     * The same on a TCP socket created by the caller (its attributes, e.g. SegmentSize, set).
     * @param socket an unconnected TCP socket
     * @param peer the responder's InetSocketAddress
     */
    void Connect(Ptr<Socket> socket, const Address& peer);

    /**
     * Take a connected TCP socket (accepted by a listener) as the responder.
     * @param socket the socket
     */
    void Accept(Ptr<Socket> socket);

    /**
     * Post a work request; it waits in order until the connection is established.
     * @param verb WRITE, SEND or READ
     * @param bytes message size (1 byte to 4 GiB - 1 for READ, any positive size otherwise)
     * @param done called at completion (may be null)
     * @return the work request id
     */
    uint64_t Post(RdmaVerb verb, uint64_t bytes, RdmaQueuePair::CompletionCallback done);

    /**
     * Post one of Send's variants (RFC 5040): with Solicited Event (the peer's
     * SolicitedEvent trace fires when it is placed) and/or with Invalidate (the peer invalidates
     * one of its STags, so that later RDMA Writes or Reads to it are errors). It completes as a
     * SEND.
     * @param bytes message size
     * @param solicited set the solicited event
     * @param invalidateStag the peer STag to invalidate (0: none)
     * @param done called at completion (may be null)
     * @return the work request id
     */
    uint64_t PostSend(uint64_t bytes,
                      bool solicited,
                      uint32_t invalidateStag,
                      RdmaQueuePair::CompletionCallback done);

    /// @return the STag of the peer's buffer (0 before establishment)
    uint32_t GetPeerStag() const;
    /// @return the STag of this end's buffer
    uint32_t GetStag() const;

    /// @return the connection's state
    State GetState() const;
    /// @return why it was terminated, or ""
    std::string GetTerminateReason() const;
    /// @return the TCP socket (null before Connect or Accept)
    Ptr<Socket> GetTcpSocket() const;
    /// @return the TCP segment size the FPDUs are cut to (0 before Connect or Accept)
    uint32_t GetEmss() const;
    /// @return MULPDU of the transmit direction (0 before establishment)
    uint32_t GetMulpdu() const;
    /// @return whether markers go on the stream this end sends
    bool GetTxMarkers() const;
    /// @return whether FPDUs carry CRCs
    bool GetCrcEnabled() const;

    /// @return FPDUs sent
    uint64_t GetFpdusSent() const;
    /// @return FPDUs that did not end where TCP would end a segment
    uint64_t GetUnalignedFpdus() const;
    /// @return FPDUs received and accepted
    uint64_t GetFpdusReceived() const;
    /// @return payload bytes placed here (RDMA Write, Send, Read Response)
    uint64_t GetBytesPlaced() const;
    /// @return placed bytes that differed from what the peer sent
    uint64_t GetPlacementErrors() const;
    /// @return work requests posted and not completed (flushed, after a Terminate)
    uint64_t GetOutstanding() const;

    /**
     * The pattern byte at an offset of a message (payload content, verified by the receiver).
     * @param key the STag (tagged) or MSN (untagged)
     * @param offset the tagged offset or message offset
     * @return the byte
     */
    static uint8_t PatternByte(uint64_t key, uint64_t offset)
    {
        return static_cast<uint8_t>(offset * 131 + (offset >> 8) * 7 + key * 29 + (key >> 16));
    }

  protected:
    void DoDispose() override;

  private:
    /// A message to put on the stream, FPDU by FPDU.
    struct OutMessage
    {
        uint8_t opcode{0};                  //!< RDMAP opcode
        uint64_t bytes{0};                  //!< payload bytes (data messages)
        uint64_t sent{0};                   //!< payload bytes framed
        uint32_t stag{0};                   //!< tagged: the STag; untagged: none
        uint64_t to{0};                     //!< tagged: offset of the message's first byte
        uint32_t qn{0};                     //!< untagged: queue
        uint32_t msn{0};                    //!< untagged: MSN
        uint32_t invalidate{0};             //!< Send with Invalidate: the STag
        std::vector<uint8_t> control;       //!< untagged control payload (Read Request, Terminate)
        IwarpReadRequestHeader readRequest; //!< a Read Request's fields
        int64_t request{-1};                //!< id of the request whose stream end this sets, or -1
    };

    /// A posted work request.
    struct Request
    {
        uint64_t id{0};                 //!< Post's id
        RdmaVerb verb{RdmaVerb::WRITE}; //!< verb
        uint64_t bytes{0};              //!< size
        Time posted;                    //!< posted at
        uint64_t streamEnd{0}; //!< WRITE/SEND: stream offset after the last byte (0: not framed)
        bool readDone{false};  //!< READ: last response placed
        Time readDoneAt;       //!< READ: when
        RdmaQueuePair::CompletionCallback done; //!< callback
    };

    void ConnectionSucceeded(Ptr<Socket> socket);
    void ConnectionFailed(Ptr<Socket> socket);
    void NormalClose(Ptr<Socket> socket);
    void ErrorClose(Ptr<Socket> socket);
    void DataReceived(Ptr<Socket> socket);
    void SendSpace(Ptr<Socket> socket, uint32_t available);
    void NextTxSequence(SequenceNumber32 oldValue, SequenceNumber32 newValue);
    void HighestRxAck(SequenceNumber32 oldValue, SequenceNumber32 newValue);

    /// Queue a work request (a Send as the given RDMAP opcode, with its STag to invalidate).
    uint64_t Enqueue(RdmaVerb verb,
                     uint64_t bytes,
                     RdmaQueuePair::CompletionCallback done,
                     uint8_t sendOpcode,
                     uint32_t invalidate);
    /// Hook up callbacks and traces of the TCP socket.
    void AttachSocket(Ptr<Socket> socket);
    /// Write bytes to TCP (they always fit: callers check first).
    void Write(const std::vector<uint8_t>& bytes);
    /// Parse start-up frame bytes; on completion, enter full operation.
    void ReceiveStartup();
    /// Full operation begins.
    void Establish(bool txMarkers, bool crc);
    /// Frame and write FPDUs while TCP has room.
    void TrySend();
    /// Deframe stream bytes and handle their ULPDUs; false once the connection is terminated.
    bool Deframe(const std::vector<uint8_t>& bytes);
    /// Handle one ULPDU; false after a Terminate.
    bool ReceiveUlpdu(const std::vector<uint8_t>& ulpdu);
    /// Verify and count placed payload bytes.
    void Place(uint64_t key, uint64_t offset, const uint8_t* data, uint32_t size);
    /// Complete, in posting order, what may be completed.
    void CompleteRequests();
    /// An error found here: send a Terminate and stop.
    void Fail(IwarpTerminateHeader::Layer layer,
              uint8_t etype,
              uint8_t code,
              const std::string& detail);
    /// Stop: record the reason, fire the trace, close TCP.
    void Stop(const std::string& reason, bool local);
    /// Offset in this end's transmit stream of a TCP sequence number.
    uint64_t TxOffset(SequenceNumber32 seq) const;

    // Attributes
    bool m_wantMarkers; //!< markers on the stream this end receives
    bool m_wantCrc;     //!< CRC
    uint32_t m_stag;    //!< this end's buffer STag (0: allocate)
    uint8_t m_tos;      //!< IP TOS of the TCP socket

    Ptr<Socket> m_socket;              //!< the TCP connection
    State m_state;                     //!< where it is
    bool m_initiator;                  //!< initiator (Connect) or responder (Accept)
    uint32_t m_emss;                   //!< segment size
    std::unique_ptr<IwarpMpa> m_txMpa; //!< transmit framing
    std::unique_ptr<IwarpMpa> m_rxMpa; //!< receive deframing
    bool m_txMarkers;                  //!< markers on the stream sent
    bool m_crc;                        //!< CRCs in use
    uint32_t m_peerStag;               //!< the peer's buffer STag
    bool m_peerSentFirst;              //!< responder: the initiator's first FPDU arrived

    std::vector<uint8_t> m_startup; //!< start-up frame bytes received so far
    uint64_t m_written;             //!< bytes given to TCP
    SequenceNumber32 m_txBase;      //!< TCP sequence of stream offset 0
    SequenceNumber32 m_nextTx;      //!< TCP's next sequence to send
    uint64_t m_acked;               //!< stream bytes acknowledged
    bool m_sequencesKnown;          //!< m_txBase valid

    std::deque<OutMessage> m_out;   //!< messages to frame
    std::deque<Request> m_requests; //!< posted, not completed, in posting order
    uint64_t m_requestBase;         //!< Post id of m_requests.front()
    uint64_t m_nextId;              //!< next Post id
    std::deque<uint64_t> m_reads;   //!< ids of READs awaiting responses, in order
    uint64_t m_readBytes;           //!< bytes of the oldest READ's responses placed
    uint64_t m_writeTo;             //!< next RDMA Write tagged offset (at the peer)
    uint64_t m_readTo;              //!< next Read sink offset (here)
    uint32_t m_sendMsn;             //!< next Send MSN
    uint32_t m_readMsn;             //!< next Read Request MSN

    uint64_t m_expectWriteTo; //!< next RDMA Write offset expected here
    uint64_t m_expectReadTo;  //!< next Read Response offset expected here
    uint32_t m_expectSendMsn; //!< Send MSN expected
    uint32_t m_expectSendMo;  //!< Send MO expected
    uint32_t m_expectReadMsn; //!< Read Request MSN expected
    uint64_t m_writeBytes;    //!< bytes of the RDMA Write being received

    std::string m_terminateReason; //!< why it ended
    uint64_t m_fpdusSent;          //!< FPDUs sent
    uint64_t m_unaligned;          //!< FPDUs not ending at a segment boundary
    uint64_t m_fpdusReceived;      //!< FPDUs accepted
    uint64_t m_bytesPlaced;        //!< payload bytes placed
    uint64_t m_placementErrors;    //!< wrong bytes placed
    bool m_inTrySend;              //!< re-entrance guard
    bool m_waitingForTcp;          //!< TrySend waits for TCP to send a short segment
    EventId m_resumeEvent;         //!< TrySend once it has

    TracedCallback<const RdmaCompletion&> m_completionTrace;   //!< a work request completed
    TracedCallback<const std::string&, bool> m_terminateTrace; //!< the connection ended in error
    TracedCallback<RdmaVerb, uint64_t> m_messageTrace;         //!< a message was placed here
    TracedCallback<> m_establishedTrace;                       //!< full operation began
    TracedCallback<uint64_t> m_solicitedTrace; //!< a Send with Solicited Event was placed here
    bool m_stagValid;                          //!< this end's STag not invalidated
};

} // namespace ns3

#endif // IWARP_SOCKET_H
