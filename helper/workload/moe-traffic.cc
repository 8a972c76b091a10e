/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "moe-traffic.h"

#include "ns3/interconnect-config-error.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

MoeTraffic::MoeTraffic(uint32_t gpus,
                       uint32_t tokensPerGpu,
                       uint32_t hidden,
                       uint32_t bytesPerElement,
                       uint32_t topK,
                       uint32_t expertsPerGpu,
                       Popularity popularity,
                       const std::string& key)
    : m_gpus(gpus),
      m_tokens(tokensPerGpu),
      m_hidden(hidden),
      m_bytesPerElement(bytesPerElement),
      m_topK(topK),
      m_expertsPerGpu(expertsPerGpu),
      m_popularity(popularity)
{
    if (gpus < 2)
    {
        InterconnectConfigError(key + ".hosts",
                                std::to_string(gpus) + " GPUs",
                                "a group of at least 2 GPUs");
    }
    if (tokensPerGpu < 1 || hidden < 1 || bytesPerElement < 1 || expertsPerGpu < 1)
    {
        InterconnectConfigError(key,
                                "tokensPerGpu=" + std::to_string(tokensPerGpu) +
                                    " hidden=" + std::to_string(hidden) +
                                    " bytesPerElement=" + std::to_string(bytesPerElement) +
                                    " expertsPerGpu=" + std::to_string(expertsPerGpu),
                                "every one at least 1");
    }
    if (topK < 1 || topK > gpus * expertsPerGpu)
    {
        InterconnectConfigError(key + ".topK",
                                std::to_string(topK),
                                "1.." + std::to_string(gpus * expertsPerGpu) + " (the experts)");
    }
    const std::string& k = popularity.kind;
    if (!(k == "uniform" ||
          (k == "zipf" && popularity.value >= 0 && popularity.value <= MAX_ZIPF) ||
          (k == "gini" && popularity.value >= 0 && popularity.value < 1)))
    {
        InterconnectConfigError(key + ".popularity",
                                k + ":" + std::to_string(popularity.value),
                                "uniform, zipf with an exponent 0..64, or gini with a target in "
                                "[0, 1)");
    }
    // Each token picks topK distinct experts: at least that many must have a chance.
    const std::vector<double> w = ExpertWeights();
    const auto chances = std::count_if(w.begin(), w.end(), [](double x) { return x > 0; });
    if (chances < static_cast<std::ptrdiff_t>(topK))
    {
        InterconnectConfigError(key + ".popularity",
                                k + ":" + std::to_string(popularity.value),
                                "a popularity that leaves at least topK = " + std::to_string(topK) +
                                    " experts a non-zero weight (only " + std::to_string(chances) +
                                    " have one)");
    }
}

MoeTraffic::Popularity
MoeTraffic::ParsePopularity(const std::string& key, const std::string& text)
{
    const std::string accepted = "uniform, zipf:S with 0 <= S <= 64, or gini:G with 0 <= G < 1";
    if (text == "uniform")
    {
        return Popularity{"uniform", 0};
    }
    const std::size_t colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    if (colon == std::string::npos || colon + 1 == text.size() ||
        (kind != "zipf" && kind != "gini"))
    {
        InterconnectConfigError(key, text, accepted);
    }
    const std::string number = text.substr(colon + 1);
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (*end != '\0' || std::isspace(static_cast<unsigned char>(number[0])) ||
        !std::isfinite(value) || value < 0 || (kind == "zipf" && value > MAX_ZIPF) ||
        (kind == "gini" && value >= 1))
    {
        InterconnectConfigError(key, text, accepted);
    }
    return Popularity{kind, value};
}

uint64_t
MoeTraffic::BytesPerToken() const
{
    return static_cast<uint64_t>(m_hidden) * m_bytesPerElement;
}

std::vector<double>
MoeTraffic::ZipfWeights(double s) const
{
    const uint32_t experts = m_gpus * m_expertsPerGpu;
    std::vector<double> w(experts);
    for (uint32_t e = 0; e < experts; ++e)
    {
        w[e] = 1.0 / std::pow(e + 1.0, s);
    }
    const double sum = std::accumulate(w.begin(), w.end(), 0.0);
    for (auto& v : w)
    {
        v /= sum;
    }
    return w;
}

double
MoeTraffic::Gini(std::vector<double> x)
{
    std::sort(x.begin(), x.end());
    const double n = x.size();
    const double sum = std::accumulate(x.begin(), x.end(), 0.0);
    if (n == 0 || sum <= 0)
    {
        return 0;
    }
    double weighted = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
    {
        weighted += (i + 1) * x[i];
    }
    return 2 * weighted / (n * sum) - (n + 1) / n;
}

std::vector<double>
MoeTraffic::ExpertWeights() const
{
    if (m_popularity.kind == "uniform")
    {
        return ZipfWeights(0);
    }
    if (m_popularity.kind == "zipf")
    {
        return ZipfWeights(m_popularity.value);
    }
    // Gini target: the Gini of Zipf weights grows with s; bisect s.
    double lo = 0;
    double hi = 1;
    while (Gini(ZipfWeights(hi)) < m_popularity.value && hi < 64)
    {
        hi *= 2;
    }
    for (int i = 0; i < 60; ++i)
    {
        const double mid = (lo + hi) / 2;
        (Gini(ZipfWeights(mid)) < m_popularity.value ? lo : hi) = mid;
    }
    return ZipfWeights((lo + hi) / 2);
}

std::vector<std::vector<uint64_t>>
MoeTraffic::DispatchMatrix(int64_t stream) const
{
    const std::vector<double> weights = ExpertWeights();
    const uint32_t experts = weights.size();
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(stream);
    std::vector<std::vector<uint64_t>> bytes(m_gpus, std::vector<uint64_t>(m_gpus, 0));
    std::vector<double> w(experts);
    for (uint32_t g = 0; g < m_gpus; ++g)
    {
        for (uint32_t t = 0; t < m_tokens; ++t)
        {
            // TopK distinct experts: successive weighted draws without replacement.
            w = weights;
            double left = 1.0;
            for (uint32_t k = 0; k < m_topK; ++k)
            {
                double x = u->GetValue() * left;
                uint32_t e = 0;
                for (; e + 1 < experts; ++e)
                {
                    if (w[e] > 0 && x < w[e])
                    {
                        break;
                    }
                    x -= w[e];
                }
                while (w[e] == 0) // rounding at the far end: the last expert still available
                {
                    e = (e + experts - 1) % experts;
                }
                left -= w[e];
                w[e] = 0;
                bytes[g][e / m_expertsPerGpu] += BytesPerToken();
            }
        }
    }
    return bytes;
}

} // namespace ns3
