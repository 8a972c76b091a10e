/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MOE_TRAFFIC_H
#define MOE_TRAFFIC_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The token routing of one mixture-of-experts (MoE) layer with expert parallelism.
 *
 * G GPUs each hold TokensPerGpu tokens and ExpertsPerGpu experts (expert e lives on GPU
 * e / ExpertsPerGpu). Each token goes to TopK distinct experts drawn by popularity (uniform,
 * Zipf with exponent s, or Zipf with the exponent that gives a target Gini coefficient of the
 * expert popularities); dispatching it sends Hidden x BytesPerElement bytes from its GPU to each
 * chosen expert's GPU, and the combine sends the same back. A token routed to an expert on its
 * own GPU moves nothing over the network. MoeTraffic routes tokens between GPU indices only:
 * CollectiveHelper::MoeLayers carries the phases, over the network when each GPU is a host, or
 * with GPU servers (CollectiveHelper::SetGpuServers) over a server's NVLink/PCIe fabric
 * between its own GPUs and over the GPUs' rail NICs between servers.
 */
class MoeTraffic
{
  public:
    /// How popular the experts are.
    struct Popularity
    {
        std::string kind; //!< "uniform", "zipf" or "gini"
        double value;     //!< Zipf exponent s, or target Gini coefficient in [0, 1)
    };

    /// The largest Zipf exponent accepted (beyond it the weights underflow to nothing).
    static constexpr double MAX_ZIPF = 64;

    /**
     * Read a popularity as a scenario gives it: "uniform", "zipf:S" (0 <= S <= MAX_ZIPF) or
     * "gini:G" (0 <= G < 1); anything else is a configuration error naming the key.
     * @param key the scenario key, for the message
     * @param text the value
     * @return the popularity
     */
    static Popularity ParsePopularity(const std::string& key, const std::string& text);

    /**
     * @param gpus G (>= 2)
     * @param tokensPerGpu tokens per GPU (>= 1)
     * @param hidden hidden size (>= 1)
     * @param bytesPerElement bytes per element (e.g. 2 for bf16)
     * @param topK experts per token (1 .. G x experts per GPU)
     * @param expertsPerGpu experts per GPU (>= 1)
     * @param popularity expert popularity
     * @param key how errors name these parameters: "<key>.topK", "<key>.popularity", ... (a
     *        scenario's workload, e.g. "workloads.2")
     */
    MoeTraffic(uint32_t gpus,
               uint32_t tokensPerGpu,
               uint32_t hidden,
               uint32_t bytesPerElement,
               uint32_t topK,
               uint32_t expertsPerGpu,
               Popularity popularity,
               const std::string& key = "moe");

    /// @return the popularity weight of each expert (they sum to 1)
    std::vector<double> ExpertWeights() const;

    /**
     * Route every token of one layer.
     * @param stream the random stream to draw from
     * @return bytes[src][dst] of the dispatch (the combine is its transpose); the diagonal
     *         holds what stays on a GPU
     */
    std::vector<std::vector<uint64_t>> DispatchMatrix(int64_t stream) const;

    /// @return bytes one token moves to one expert
    uint64_t BytesPerToken() const;

    /**
     * Gini coefficient of a set of non-negative shares: 0 equal, towards 1 concentrated.
     * @param x the shares
     * @return the coefficient
     */
    static double Gini(std::vector<double> x);

  private:
    /// Zipf weights over the experts with exponent s.
    std::vector<double> ZipfWeights(double s) const;

    uint32_t m_gpus;            //!< G
    uint32_t m_tokens;          //!< tokens per GPU
    uint32_t m_hidden;          //!< hidden size
    uint32_t m_bytesPerElement; //!< bytes per element
    uint32_t m_topK;            //!< experts per token
    uint32_t m_expertsPerGpu;   //!< experts per GPU
    Popularity m_popularity;    //!< popularity
};

} // namespace ns3

#endif // MOE_TRAFFIC_H
