/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REMOTE_LINK_TAG_H
#define REMOTE_LINK_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief What a frame crossing ranks of a distributed run carries besides its bytes.
 *
 * PfcRemoteChannel and IbRemoteChannel hand a frame to MpiInterface when its first bit reaches
 * the far end; this tag (serialized with the packet) tells the far end what the channel would
 * have passed to the receiving device and when: the link's own field (an EtherType; a virtual
 * lane and the flow-control flag), the frame's number on its direction of the link (the key of
 * its arrival for CanonicalScheduler) and the time from its first bit to when the device takes it.
 */
class RemoteLinkTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    uint16_t info{0};     //!< the link's field: EtherType, or VL | flow control << 8
    uint64_t sequence{0}; //!< the frame's number on its direction of the link
    int64_t remaining{0}; //!< time steps from its first bit to its arrival
};

} // namespace ns3

#endif // REMOTE_LINK_TAG_H
