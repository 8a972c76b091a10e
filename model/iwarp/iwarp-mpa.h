/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IWARP_MPA_H
#define IWARP_MPA_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief MPA framing (RFC 5044): FPDUs in a TCP byte stream, with markers and CRC32c.
 *
 * An FPDU is ULPDU_LENGTH (16 bits: the ULPDU's bytes only), the ULPDU (a DDP segment), 0-3
 * bytes of pad so that 2 + ULPDU_LENGTH is a multiple of 4, and a CRC32c over all of it (the
 * markers inside included). With markers negotiated, a 4-byte marker (16 reserved bits, then
 * FPDUPTR: the bytes back from the marker to its FPDU's ULPDU_LENGTH field) sits every 512
 * octets of the stream, counted from the first FPDU after the start-up frames; a marker that
 * falls where an FPDU begins precedes its ULPDU_LENGTH with FPDUPTR 0. The largest ULPDU that
 * fits one TCP segment of EMSS bytes is MULPDU = EMSS - (6 + 4 x ceiling(EMSS / 512) + EMSS mod 4)
 * with markers, EMSS - (6 + EMSS mod 4) without.
 *
 * The framer and deframer work on bytes (std::vector<uint8_t>), the way a TCP socket carries them.
 */
class IwarpMpa
{
  public:
    /// Marker interval in stream octets.
    static constexpr uint32_t MARKER_INTERVAL = 512;
    /// ULPDU_LENGTH + CRC.
    static constexpr uint32_t OVERHEAD = 6;

    /**
     * @param emss effective MSS of the TCP connection
     * @param markers markers negotiated
     * @return the largest ULPDU one FPDU may carry
     */
    static uint32_t Mulpdu(uint32_t emss, bool markers);

    /// @param ulpduLength a ULPDU's bytes @return the pad after it
    static uint32_t PadLength(uint32_t ulpduLength);

    /**
     * The start-up request or reply frame (RFC 5044): the 16-byte key "MPA ID Req Frame" or
     * "MPA ID Rep Frame", flags M (markers), C (CRC), R (reject), Rev 1, PD_Length, private data.
     * @param request request or reply
     * @param markers M
     * @param crc C
     * @param reject R
     * @param privateData at most 512 bytes
     * @return the frame's bytes
     */
    static std::vector<uint8_t> StartupFrame(bool request,
                                             bool markers,
                                             bool crc,
                                             bool reject,
                                             const std::vector<uint8_t>& privateData);

    /// A parsed start-up frame.
    struct Startup
    {
        bool request{false};              //!< request or reply
        bool markers{false};              //!< M
        bool crc{false};                  //!< C
        bool reject{false};               //!< R
        uint8_t revision{0};              //!< Rev
        std::vector<uint8_t> privateData; //!< private data
    };

    /**
     * @param bytes the frame
     * @param[out] out the frame's fields
     * @param[out] error why it is not a start-up frame
     * @return true if it is one
     */
    static bool ParseStartupFrame(const std::vector<uint8_t>& bytes,
                                  Startup& out,
                                  std::string& error);

    /**
     * @param markers insert markers
     * @param crc compute CRCs (else the field is zero)
     */
    IwarpMpa(bool markers, bool crc);

    /**
     * Frame one ULPDU as the next FPDU of the stream.
     * @param ulpdu the DDP segment (at most 65535 bytes)
     * @return the bytes to send, markers included
     */
    std::vector<uint8_t> Frame(const std::vector<uint8_t>& ulpdu);

    /**
     * Take received stream bytes; complete FPDUs come out in order.
     * @param bytes the next bytes of the stream
     * @param[out] ulpdus the ULPDUs completed by them
     * @param[out] error set when an FPDU is malformed (CRC mismatch, a marker that does not point
     *             to its FPDU); the stream is then dead and the connection must be terminated
     * @return false on such an error
     */
    bool Receive(const std::vector<uint8_t>& bytes,
                 std::vector<std::vector<uint8_t>>& ulpdus,
                 std::string& error);

    /// What made a received stream malformed.
    enum RxError
    {
        RX_OK,     //!< nothing
        RX_CRC,    //!< an FPDU's CRC32c did not match
        RX_FRAMING //!< a marker or a ULPDU_LENGTH that does not fit its FPDU
    };

    /// @return the error Receive last reported (RX_OK if none)
    RxError GetRxError() const;

    /// @return stream octets framed (sent) so far
    uint64_t GetTxOffset() const;

    /**
     * @param ulpduLength a ULPDU's bytes
     * @return the bytes its FPDU takes when framed next, the markers it will contain included
     */
    uint32_t FpduLength(uint32_t ulpduLength) const;

    /**
     * @param budget stream octets available from the next FPDU's first byte
     * @return the largest ULPDU whose FPDU, framed next, fits in them (0 if none does)
     */
    uint32_t MaxUlpdu(uint32_t budget) const;

  private:
    /// Append bytes at the sender's stream position, inserting the markers that fall in them.
    void Emit(std::vector<uint8_t>& out, const uint8_t* data, std::size_t size, uint64_t header);
    /// @param head an FPDU's first two bytes or more (ULPDU_LENGTH) @return its bytes, markers
    /// not counted
    static std::size_t FpduBytes(const std::vector<uint8_t>& head);

    bool m_markers;                //!< markers on
    bool m_crc;                    //!< CRC on
    uint64_t m_txOffset;           //!< octets framed
    uint64_t m_rxOffset;           //!< octets consumed by the receiver
    std::vector<uint8_t> m_rx;     //!< received bytes of the FPDU in progress, markers removed
    std::vector<uint8_t> m_rxCrc;  //!< the same with its markers, for the CRC
    uint64_t m_rxFpduStart;        //!< stream offset of that FPDU's ULPDU_LENGTH field
    uint32_t m_rxMarkerBytes;      //!< bytes of a marker still to skip
    bool m_rxInMarker;             //!< inside a marker
    std::vector<uint8_t> m_marker; //!< the marker being read
    bool m_dead;                   //!< a malformed FPDU was seen
    RxError m_rxError;             //!< what it was
};

} // namespace ns3

#endif // IWARP_MPA_H
