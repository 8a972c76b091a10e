/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERCONNECT_CONFIG_ERROR_TEST_H
#define INTERCONNECT_CONFIG_ERROR_TEST_H

#include "ns3/interconnect-config-error.h"

#include <gtest/gtest.h>
#include <regex>

/**
 * Expect `statement` to report a configuration error whose message matches the regular
 * expression `pattern` (searched, as EXPECT_EXIT does).
 */
#define EXPECT_CONFIG_ERROR(statement, pattern)                                                    \
    do                                                                                             \
    {                                                                                              \
        bool reported_ = false;                                                                    \
        try                                                                                        \
        {                                                                                          \
            statement;                                                                             \
        }                                                                                          \
        catch (const ns3::InterconnectConfigException& e)                                          \
        {                                                                                          \
            reported_ = true;                                                                      \
            EXPECT_TRUE(std::regex_search(e.what(), std::regex(pattern)))                          \
                << "message: " << e.what() << "\nexpected: " << (pattern);                         \
        }                                                                                          \
        EXPECT_TRUE(reported_) << "no configuration error from: " #statement;                      \
    } while (false)

#endif // INTERCONNECT_CONFIG_ERROR_TEST_H
