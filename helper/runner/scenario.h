/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_H
#define SCENARIO_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup interconnect
 * The TcpCongestionOps TypeId name of a scenario's tcp.cc: a short name (newreno, cubic, dctcp,
 * bic, bbr, vegas) or a TypeId name; anything else is a configuration error naming `parameter`.
 * @param parameter the setting, for the error
 * @param name its value
 * @return the TypeId name
 */
std::string ResolveTcpCongestionControl(const std::string& parameter, const std::string& name);

/**
 * @ingroup interconnect
 * @brief One key of a scenario object: its name, type, default and accepted range or choices.
 * Scenario checks a value against it; a workload kind declares its keys with these.
 */
struct ScenarioKey
{
    /// The type of a value.
    enum class Type
    {
        INT,     //!< a whole number in [min, max]
        NUMBER,  //!< a number in [min, max]
        BOOL,    //!< true or false
        STRING,  //!< a string (one of `choices` if any)
        BYTES,   //!< a size: "64KB", "1MiB" or a whole number of bytes, in [min, max]
        RATE,    //!< a data rate: "100Gbps"
        TIME,    //!< a time: "10us", at least `min` nanoseconds
        INT_LIST //!< a list of whole numbers in [min, max]
    };

    std::string name;                 //!< key
    Type type;                        //!< type
    nlohmann::ordered_json def;       //!< default
    double min;                       //!< smallest number (INT, NUMBER, INT_LIST, BYTES, TIME)
    double max;                       //!< largest number
    std::vector<std::string> choices; //!< accepted strings (STRING); empty: any
    std::string help;                 //!< what it means, for the manual's key table
    /// The model attributes the runner sets from this key, and whether the key's default is
    /// the attribute's TypeId default (a test holds them equal: they cannot drift apart).
    std::vector<std::pair<std::string, bool>> attributes;

    /// No upper bound.
    static constexpr double UNBOUNDED = std::numeric_limits<double>::infinity();

    /// @param name key @param def default @param min smallest @param max largest @return key
    static ScenarioKey Int(const std::string& name,
                           int64_t def,
                           double min,
                           double max = UNBOUNDED);
    /// @param name key @param def default @param min smallest @param max largest @return key
    static ScenarioKey Number(const std::string& name, double def, double min, double max);
    /// @param name key @param def default @return key
    static ScenarioKey Bool(const std::string& name, bool def);
    /// @param name key @param def default @param choices accepted values @return key
    static ScenarioKey Choice(const std::string& name,
                              const std::string& def,
                              std::vector<std::string> choices);
    /// @param name key @param def default @return a key taking any string
    static ScenarioKey Text(const std::string& name, const std::string& def);
    /// @param name key @param def default @param min smallest, bytes @return key
    static ScenarioKey Bytes(const std::string& name, const std::string& def, double min = 0);
    /// @param name key @param def default @return key
    static ScenarioKey Rate(const std::string& name, const std::string& def);
    /// @param name key @param def default @param minNs shortest, nanoseconds @return key
    static ScenarioKey Duration(const std::string& name, const std::string& def, double minNs = 0);
    /// @param text what the key means (the manual's key table) @return this key with it
    ScenarioKey Help(const std::string& text) const;
    /**
     * Declare a model attribute the runner sets from this key: the manual's table names it, a
     * value the model refuses is reported by this key (ScenarioRunner::InScenarioTerms) and,
     * with sameDefault, a test checks that the key's default is the attribute's.
     * @param path the attribute, "ns3::Class::Attribute"
     * @param sameDefault whether the key's default is the TypeId's (false: the runner's own,
     *        e.g. a datacenter RNIC's where ns-3's is a WAN host's)
     * @return this key with it
     */
    ScenarioKey Sets(const std::string& path, bool sameDefault = true) const;
    /// @param name key @param def default @param min smallest @param max largest @return key
    static ScenarioKey IntList(const std::string& name,
                               nlohmann::ordered_json def,
                               double min,
                               double max);
};

/**
 * @ingroup interconnect
 * @brief A scenario file, checked against its schema and completed with every default.
 *
 * A scenario is a JSON object with the sections name, seed, run, stopTime, fabric, link,
 * switch, nic, workloads and output (doc/interconnect.rst lists every key, its type, default
 * and accepted values). Loading checks every key: an unknown key, a value of the wrong type or
 * out of range is a configuration error (InterconnectConfigException) whose message names the
 * key (e.g. `fabric.k`), the value and what is accepted. `--set path.to.key=value` overrides apply
 * before the check (the value is read as JSON when it parses, else as a string; `workloads.0.load`
 * addresses an array element). The resolved scenario holds every key with its value, defaults
 * included, in a fixed order: written as config.json and run again, it reproduces the run.
 */
class Scenario
{
  public:
    /**
     * Load, override, check and complete a scenario file.
     * @param path the file
     * @param sets overrides, "path.to.key=value"
     * @return the resolved scenario
     */
    static Scenario Load(const std::string& path, const std::vector<std::string>& sets);

    /**
     * The same from text.
     * @param text the JSON text
     * @param origin where it came from, for messages
     * @param sets overrides
     * @return the resolved scenario
     */
    static Scenario Parse(const std::string& text,
                          const std::string& origin,
                          const std::vector<std::string>& sets);

    /// @return the resolved scenario as JSON text (2-space indent, fixed key order)
    std::string ToJson() const;

    /**
     * The manual's table of scenario keys, made from the keys the parser checks (their
     * defaults, what each accepts and its help), the registered workload kinds' included:
     * doc/interconnect.rst holds this text, and a test keeps it so.
     * @return the table, as a reStructuredText list-table
     */
    static std::string KeyTable();

    /**
     * Read nic.maxOutstanding (a configuration error names it otherwise).
     * @param text "auto", "none", "bdp" or a count of packets, 1 to 2^23 - 1
     * @return 0 for none, -1 for bdp, -2 for auto (bdp with IRN, none with go-back-N), else
     *         the count
     */
    static int64_t ParseMaxOutstanding(const std::string& text);

    /**
     * Every key (its full path: fabric.k, workloads.N.load, ...) with the model attributes it
     * sets (ScenarioKey::Sets), in the key table's order.
     * @return key paths and their keys
     */
    static std::vector<std::pair<std::string, ScenarioKey>> AllKeys();

    /// @return the resolved JSON
    const nlohmann::ordered_json& Json() const;

    /**
     * @param path a dotted key, e.g. "fabric.k" or "workloads.0.load"
     * @return the resolved value
     */
    const nlohmann::ordered_json& At(const std::string& path) const;

    /**
     * @param section a top-level key
     * @return true if the resolved scenario has it (every key has, but "attributes" only when
     *         given)
     */
    bool Has(const std::string& section) const;

    /// @return a string key
    std::string String(const std::string& path) const;
    /// @return an integer key
    int64_t Int(const std::string& path) const;
    /// @return a number key
    double Double(const std::string& path) const;
    /// @return a boolean key
    bool Bool(const std::string& path) const;
    /// @return a byte-size key (a number, or a string with a unit: "64KB", "2MiB")
    uint64_t Bytes(const std::string& path) const;
    /// @return a rate key ("100Gbps")
    DataRate Rate(const std::string& path) const;
    /// @return a time key ("10us")
    Time Duration(const std::string& path) const;
    /// @return the number of workloads
    std::size_t NumWorkloads() const;

    /**
     * Whether nic.ccLibrary loads its plugin (default true). A scenario that names a library
     * runs its code; the fuzzer, which tries any text as a scenario, turns loading off, and a
     * scenario naming a library is then a configuration error.
     * @param allowed load plugins
     */
    static void AllowPlugins(bool allowed);

    /**
     * @return the "recorded" section of the file (what a run wrote of itself into its
     *         config.json: the build and the attribute defaults it used), as given; {} if none
     */
    const nlohmann::ordered_json& Recorded() const;

  private:
    nlohmann::ordered_json m_json;     //!< the resolved scenario
    nlohmann::ordered_json m_recorded; //!< the given "recorded" section
};

} // namespace ns3

#endif // SCENARIO_H
