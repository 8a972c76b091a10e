/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_HOST_ADAPTER_H
#define IB_HOST_ADAPTER_H

#include "ib-net-device.h"

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The link side of an InfiniBand host channel adapter, for traffic over an IB fabric:
 * a message of S bytes leaves as MTU-sized SEND packets (LRH, BTH, payload, ICRC) to a DLID,
 * and arriving messages are recorded with their source LID, size and completion time.
 *
 * It has no reliability of its own: the fabric is lossless by its credits. The RC transport
 * (acknowledgements, PSN checks, RDMA WRITE/READ) over InfiniBand is not there yet.
 */
class IbHostAdapter : public Object
{
  public:
    /// A message that arrived whole.
    struct Message
    {
        uint16_t slid;  //!< its source
        uint64_t bytes; //!< its payload
        Time end;       //!< when its last packet arrived
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IbHostAdapter();

    /**
     * @param device the adapter's port
     * @param lid its LID (assigned by the subnet manager)
     */
    void Install(Ptr<IbNetDevice> device, uint16_t lid);

    /// @return the LID
    uint16_t GetLid() const;
    /// @return the port
    Ptr<IbNetDevice> GetDevice() const;

    /**
     * Send a message now.
     * @param dlid destination LID
     * @param bytes payload bytes (> 0)
     * @param sl service level
     */
    void Send(uint16_t dlid, uint64_t bytes, uint8_t sl);

    /// @return the messages received so far
    const std::vector<Message>& GetMessages() const;
    /// @return payload bytes received
    uint64_t GetBytesReceived() const;
    /// @return packets received whose DLID is not this adapter's LID
    uint64_t GetMisdelivered() const;

  protected:
    void DoDispose() override;

  private:
    /// A packet arrived.
    void Receive(Ptr<IbNetDevice> device, Ptr<Packet> packet, uint8_t vl);

    Ptr<IbNetDevice> m_device;       //!< the port
    uint16_t m_lid;                  //!< its LID
    uint32_t m_psn;                  //!< next PSN
    std::vector<Message> m_messages; //!< received
    std::vector<uint64_t> m_partial; //!< bytes of the message in progress, by SLID x VL
    uint64_t m_bytesReceived;        //!< payload received
    uint64_t m_misdelivered;         //!< wrong DLID
    TracedCallback<uint16_t, uint64_t> m_messageTrace; //!< (SLID, bytes) of each message
};

} // namespace ns3

#endif // IB_HOST_ADAPTER_H
