/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-defaults.h"

#include "ns3/interconnect-config-error.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * @param info an attribute
 * @return true if its default can be set from text and recorded as text: settable at
 *         construction, and a value type that reads and writes itself (not a pointer, whose
 *         text makes an object and whose record is an address, nor a container of objects,
 *         which ns-3 cannot read from text)
 */
bool
IsPlainDefault(const TypeId::AttributeInformation& info)
{
    const std::string type = info.checker->GetValueTypeName();
    return (info.flags & TypeId::ATTR_CONSTRUCT) && type != "ns3::PointerValue" &&
           type != "ns3::ObjectPtrContainerValue" && type != "ns3::CallbackValue";
}

/**
 * Find an attribute whose default can be set and recorded as text (IsPlainDefault), by the
 * name Config::SetDefault and NS_ATTRIBUTE_DEFAULT take: the class that declares it, not a
 * subclass (ns3::RdmaChannelAdapter::HostReadRate, not ns3::RdmaNic::HostReadRate).
 * @param name "ns3::Class::Attribute"
 * @param[out] info the attribute
 * @return true if found
 */
bool
LookupPlainAttribute(const std::string& name, TypeId::AttributeInformation* info)
{
    const std::size_t split = name.rfind("::");
    TypeId tid;
    if (name.rfind("ns3::", 0) != 0 || split == std::string::npos || split <= 5 ||
        !TypeId::LookupByNameFailSafe(name.substr(0, split), &tid))
    {
        return false;
    }
    const std::string attribute = name.substr(split + 2);
    for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
    {
        if (tid.GetAttribute(a).name == attribute)
        {
            *info = tid.GetAttribute(a);
            return IsPlainDefault(*info);
        }
    }
    return false;
}

} // namespace

bool
AttributeDefaults::IsSettable(const std::string& name, const std::string& value)
{
    TypeId::AttributeInformation info;
    return LookupPlainAttribute(name, &info) &&
           info.checker->CreateValidValue(StringValue(value)) != nullptr;
}

std::string
AttributeDefaults::Normalized(const std::string& name, const std::string& value)
{
    TypeId::AttributeInformation info;
    if (!LookupPlainAttribute(name, &info))
    {
        return value;
    }
    const Ptr<AttributeValue> v = info.checker->CreateValidValue(StringValue(value));
    return v ? v->SerializeToString(info.checker) : value;
}

std::map<std::string, std::string>
AttributeDefaults::FromEnvironment()
{
    // ns-3 reads the variable the same way (ObjectBase::ConstructSelf): entries split at ';',
    // each at its first '='.
    std::map<std::string, std::string> entries;
    const char* variable = std::getenv("NS_ATTRIBUTE_DEFAULT");
    const std::string text = variable ? variable : "";
    std::size_t begin = 0;
    while (begin < text.size())
    {
        std::size_t end = text.find(';', begin);
        end = end == std::string::npos ? text.size() : end;
        const std::string entry = text.substr(begin, end - begin);
        begin = end + 1;
        if (entry.empty())
        {
            continue;
        }
        const std::size_t equal = entry.find('=');
        const std::string name = entry.substr(0, equal);
        const std::string value = equal == std::string::npos ? "" : entry.substr(equal + 1);
        if (equal == std::string::npos || !IsSettable(name, value))
        {
            InterconnectConfigError("NS_ATTRIBUTE_DEFAULT",
                                    entry,
                                    "entries ns3::Class::Attribute=value separated by ';', each "
                                    "an attribute of an ns-3 TypeId settable at construction "
                                    "and a value its checker accepts");
        }
        if (!entries.emplace(name, value).second)
        {
            InterconnectConfigError("NS_ATTRIBUTE_DEFAULT",
                                    entry,
                                    "each attribute named once (" + name + " is named twice)");
        }
    }
    return entries;
}

namespace
{

/**
 * Every attribute settable at construction whose default for the objects created now (the
 * environment's entry, else the TypeId's initial value) differs from its TypeId's declared
 * value, or that belongs to a TypeId of `group` (when not null).
 */
std::map<std::string, std::string>
Defaults(const std::string* group)
{
    const std::map<std::string, std::string> environment = AttributeDefaults::FromEnvironment();
    std::map<std::string, std::string> defaults;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        const bool inGroup = group && tid.GetGroupName() == *group;
        for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
        {
            const TypeId::AttributeInformation info = tid.GetAttribute(a);
            if (!IsPlainDefault(info))
            {
                continue;
            }
            const std::string name = tid.GetAttributeFullName(a);
            const auto env = environment.find(name);
            // (The environment's text as the checker writes it: "1us" is "+1000.0ns".)
            Ptr<const AttributeValue> value = info.initialValue;
            if (env != environment.end())
            {
                value = info.checker->CreateValidValue(StringValue(env->second));
            }
            const std::string text = value->SerializeToString(info.checker);
            // (An environment entry always: it wins over any default, even one equal to the
            // TypeId's own, so a rerun must set it.)
            if (inGroup || env != environment.end() ||
                text != info.originalInitialValue->SerializeToString(info.checker))
            {
                defaults.emplace(name, text);
            }
        }
    }
    return defaults;
}

} // namespace

std::map<std::string, std::string>
AttributeDefaults::Changed()
{
    return Defaults(nullptr);
}

std::map<std::string, std::string>
AttributeDefaults::Current(const std::string& group)
{
    return Defaults(&group);
}

namespace
{

/// @param text plain text @return it as reStructuredText inline text (markup escaped)
std::string
Inline(const std::string& text)
{
    std::string out;
    for (char c : text)
    {
        if (c == '\\' || c == '*' || c == '`' || c == '|' || c == '_')
        {
            out += '\\';
        }
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

/// @param text a value @return it as a literal, or "-" when empty
std::string
Literal(const std::string& text)
{
    return text.empty() ? std::string("-") : "``" + text + "``";
}

} // namespace

std::string
AttributeDefaults::ReferenceTable(const std::string& group)
{
    std::map<std::string, TypeId> tids;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() == group && (tid.GetAttributeN() + tid.GetTraceSourceN()) > 0)
        {
            tids.emplace(tid.GetName(), tid);
        }
    }
    std::ostringstream os;
    for (const auto& [name, tid] : tids)
    {
        os << "``" << name << "`` (" << Literal(tid.GetParent().GetName()) << ")\n\n";
        if (tid.GetAttributeN() > 0)
        {
            os << ".. list-table::\n   :header-rows: 1\n   :widths: 24 22 54\n\n"
               << "   * - Attribute\n     - Default\n     - Meaning\n";
            for (std::size_t a = 0; a < tid.GetAttributeN(); ++a)
            {
                const TypeId::AttributeInformation info = tid.GetAttribute(a);
                os << "   * - ``" << info.name << "``\n"
                   << "     - "
                   << Literal(info.originalInitialValue->SerializeToString(info.checker)) << "\n"
                   << "     - " << Inline(info.help) << "\n";
            }
            os << "\n";
        }
        if (tid.GetTraceSourceN() > 0)
        {
            os << ".. list-table::\n   :header-rows: 1\n   :widths: 24 22 54\n\n"
               << "   * - Trace source\n     - Callback\n     - Meaning\n";
            for (std::size_t t = 0; t < tid.GetTraceSourceN(); ++t)
            {
                const TypeId::TraceSourceInformation info = tid.GetTraceSource(t);
                os << "   * - ``" << info.name << "``\n"
                   << "     - " << Literal(info.callback) << "\n"
                   << "     - " << Inline(info.help) << "\n";
            }
            os << "\n";
        }
    }
    return os.str();
}

} // namespace ns3
