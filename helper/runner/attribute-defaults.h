/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATTRIBUTE_DEFAULTS_H
#define ATTRIBUTE_DEFAULTS_H

#include <map>
#include <string>

namespace ns3
{

/**
 * @ingroup interconnect
 * @brief The attribute defaults a run uses, as the records state them.
 *
 * ns-3 gives an object's attribute, in this order of precedence: the value its factory or
 * helper sets, the entry of the NS_ATTRIBUTE_DEFAULT environment variable
 * ("ns3::Class::Attribute=value;..."), and the TypeId's initial value, which Config::SetDefault,
 * `--ns3::Class::Attribute=value` on a CommandLine and the module's presets change. The
 * records name every default that is not the TypeId's own, however it was changed, so that a
 * run can be read and repeated without its environment.
 */
class AttributeDefaults
{
  public:
    /**
     * @return every attribute whose default, as an object created now gets it (the
     *         environment's entry, else the TypeId's initial value), differs from the value
     *         the TypeId declares, and every attribute NS_ATTRIBUTE_DEFAULT names:
     *         "ns3::Class::Attribute" to the value as text, by name (attributes settable at
     *         construction whose values are text: not pointers or object containers)
     */
    static std::map<std::string, std::string> Changed();

    /**
     * @param group a TypeId group name ("Interconnect")
     * @return the default of every attribute of the group's TypeIds that is settable at
     *         construction and is text (as Changed()), as an object created now gets it, and
     *         every other attribute that Changed() names, in one map by name
     */
    static std::map<std::string, std::string> Current(const std::string& group);

    /**
     * NS_ATTRIBUTE_DEFAULT, checked: every entry must be "ns3::Class::Attribute=value" with an
     * attribute settable at construction and a value its checker accepts, each named once.
     * @return the entries, by name (empty when the variable is not set)
     * @throws InterconnectConfigException naming NS_ATTRIBUTE_DEFAULT and the entry
     */
    static std::map<std::string, std::string> FromEnvironment();

    /**
     * The manual's reference of a group's TypeIds: for each (by name) its parent, its
     * attributes (default, as --PrintAttributes shows it, and help) and its trace sources
     * (callback type and help). doc/interconnect.rst holds this text, and a test keeps it so.
     * @param group a TypeId group name ("Interconnect")
     * @return reStructuredText
     */
    static std::string ReferenceTable(const std::string& group);

    /**
     * @param name "ns3::Class::Attribute"
     * @param value a value, as text
     * @return true if `name` is an attribute settable at construction (so that a default
     *         reaches the objects) and its checker accepts `value`
     */
    static bool IsSettable(const std::string& name, const std::string& value);

    /**
     * @param name "ns3::Class::Attribute"
     * @param value a value its checker accepts
     * @return the value as the checker writes it ("1us" is "+1000.0ns"); `value` itself for
     *         a name that is not a settable attribute
     */
    static std::string Normalized(const std::string& name, const std::string& value);
};

} // namespace ns3

#endif // ATTRIBUTE_DEFAULTS_H
