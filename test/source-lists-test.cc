/*
 * Copyright (c) 2026 ns3-interconnect authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// CMakeLists.txt and wscript must build the same module: the same sources, headers, tests and
// examples. These tests read both files and compare their lists, and check that every file of
// the module on disk is listed.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace
{

using FileSet = std::set<std::string>;

std::string
ReadText(const std::string& relativePath)
{
    std::ifstream in(std::string(INTERCONNECT_SOURCE_DIR) + "/" + relativePath);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

std::string
StripComments(const std::string& text)
{
    // Both CMake and Python comment with '#' to the end of the line; no listed file name has '#'.
    static const std::regex comment("#[^\n]*");
    return std::regex_replace(text, comment, "");
}

/// The entries of `set(<name> ...)` in a CMakeLists.txt text; empty if there is no such list.
FileSet
CmakeList(const std::string& cmakeText, const std::string& name)
{
    const std::regex list("set\\(\\s*" + name + "\\s+([^)]*)\\)");
    std::smatch match;
    const std::string text = StripComments(cmakeText);
    FileSet entries;
    if (std::regex_search(text, match, list))
    {
        std::istringstream words(match[1].str());
        std::string word;
        while (words >> word)
        {
            entries.insert(word);
        }
    }
    return entries;
}

/// The quoted entries of `<NAME> = [ ... ]` in a wscript text; empty if there is no such list.
FileSet
WafList(const std::string& wafText, const std::string& name)
{
    const std::regex list("\\b" + name + "\\s*=\\s*\\[([^\\]]*)\\]");
    const std::regex quoted("'([^']*)'|\"([^\"]*)\"");
    std::smatch match;
    const std::string text = StripComments(wafText);
    FileSet entries;
    if (std::regex_search(text, match, list))
    {
        const std::string body = match[1].str();
        for (auto it = std::sregex_iterator(body.begin(), body.end(), quoted);
             it != std::sregex_iterator();
             ++it)
        {
            entries.insert((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
        }
    }
    return entries;
}

/// Files under dir (relative to the source tree; in its subfolders too with `recursive`) whose
/// names end with one of the suffixes.
FileSet
FilesOnDisk(const std::string& dir,
            const std::vector<std::string>& suffixes,
            bool recursive = false)
{
    FileSet files;
    const std::filesystem::path root(INTERCONNECT_SOURCE_DIR);
    if (!std::filesystem::is_directory(root / dir))
    {
        return files;
    }
    auto add = [&](const std::filesystem::path& path) {
        const std::string name = path.filename().string();
        for (const auto& suffix : suffixes)
        {
            if (name.size() > suffix.size() &&
                name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            {
                files.insert(std::filesystem::relative(path, root).generic_string());
            }
        }
    };
    if (recursive)
    {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir))
        {
            add(entry.path());
        }
    }
    else
    {
        for (const auto& entry : std::filesystem::directory_iterator(root / dir))
        {
            add(entry.path());
        }
    }
    return files;
}

std::string
Describe(const FileSet& a, const FileSet& b)
{
    std::ostringstream os;
    for (const auto& f : a)
    {
        if (!b.count(f))
        {
            os << " only-in-first:" << f;
        }
    }
    for (const auto& f : b)
    {
        if (!a.count(f))
        {
            os << " only-in-second:" << f;
        }
    }
    return os.str();
}

struct ListPair
{
    const char* cmakeName;
    const char* wafName;
};

const ListPair LISTS[] = {
    {"interconnect_sources", "SOURCES"},
    {"interconnect_headers", "HEADERS"},
    {"interconnect_tests", "TESTS"},
    {"interconnect_examples", "EXAMPLES"},
};

} // namespace

TEST(SourceLists, CmakeAndWafAgree)
{
    const std::string cmake = ReadText("CMakeLists.txt");
    const std::string waf = ReadText("wscript");
    ASSERT_FALSE(cmake.empty());
    ASSERT_FALSE(waf.empty());
    for (const auto& pair : LISTS)
    {
        const FileSet fromCmake = CmakeList(cmake, pair.cmakeName);
        const FileSet fromWaf = WafList(waf, pair.wafName);
        EXPECT_FALSE(fromCmake.empty()) << pair.cmakeName << " not found in CMakeLists.txt";
        EXPECT_EQ(fromCmake, fromWaf) << pair.cmakeName << " (CMakeLists.txt) vs " << pair.wafName
                                      << " (wscript):" << Describe(fromCmake, fromWaf);
    }
}

TEST(SourceLists, ParserSeesAFileAddedToOneListOnly)
{
    // The comparison above must notice a source added to CMakeLists.txt alone, or to wscript alone.
    const std::string cmake = ReadText("CMakeLists.txt");
    const std::string waf = ReadText("wscript");
    const std::string cmakePlus = std::regex_replace(cmake,
                                                     std::regex("set\\(interconnect_sources"),
                                                     "set(interconnect_sources\n  model/extra.cc");
    const std::string wafPlus =
        std::regex_replace(waf, std::regex("SOURCES = \\["), "SOURCES = [\n    'model/extra.cc',");
    ASSERT_NE(cmakePlus, cmake);
    ASSERT_NE(wafPlus, waf);
    EXPECT_NE(CmakeList(cmakePlus, "interconnect_sources"), WafList(waf, "SOURCES"));
    EXPECT_NE(CmakeList(cmake, "interconnect_sources"), WafList(wafPlus, "SOURCES"));
    EXPECT_EQ(CmakeList(cmakePlus, "interconnect_sources"), WafList(wafPlus, "SOURCES"));
    // A commented-out entry is not an entry.
    const std::string wafCommented =
        std::regex_replace(waf, std::regex("SOURCES = \\["), "SOURCES = [\n    # 'model/x.cc',");
    EXPECT_EQ(WafList(wafCommented, "SOURCES"), WafList(waf, "SOURCES"));
}

TEST(SourceLists, EveryFileOnDiskIsListedAndEveryListedFileExists)
{
    const std::string cmake = ReadText("CMakeLists.txt");
    const FileSet sources = CmakeList(cmake, "interconnect_sources");
    const FileSet headers = CmakeList(cmake, "interconnect_headers");
    const FileSet tests = CmakeList(cmake, "interconnect_tests");
    const FileSet examples = CmakeList(cmake, "interconnect_examples");

    FileSet onDiskSources;
    FileSet onDiskHeaders;
    for (const char* dir : {"model", "helper"})
    {
        const FileSet cc = FilesOnDisk(dir, {".cc"}, true);
        const FileSet h = FilesOnDisk(dir, {".h"}, true);
        onDiskSources.insert(cc.begin(), cc.end());
        onDiskHeaders.insert(h.begin(), h.end());
    }
    EXPECT_EQ(sources, onDiskSources) << Describe(sources, onDiskSources);
    EXPECT_EQ(headers, onDiskHeaders) << Describe(headers, onDiskHeaders);
    const FileSet onDiskTests = FilesOnDisk("test", {"-test.cc"});
    EXPECT_EQ(tests, onDiskTests) << Describe(tests, onDiskTests);

    FileSet exampleFiles;
    for (const auto& name : examples)
    {
        exampleFiles.insert("examples/" + name + ".cc");
    }
    const FileSet onDiskExamples = FilesOnDisk("examples", {".cc"});
    EXPECT_EQ(exampleFiles, onDiskExamples) << Describe(exampleFiles, onDiskExamples);
}

TEST(SourceLists, Ns3ModuleDependenciesAgree)
{
    // Three places name the ns-3 modules the library links: the standalone list, the in-tree
    // build_lib() call (spelled out, since ns-3 reads it as text), and wscript.
    const std::string cmake = ReadText("CMakeLists.txt");
    const FileSet standalone = CmakeList(cmake, "interconnect_ns3_modules");
    const FileSet waf = WafList(ReadText("wscript"), "NS3_MODULES");

    const std::regex buildLib("build_lib\\(([^)]*)\\)");
    std::smatch call;
    const std::string text = StripComments(cmake);
    ASSERT_TRUE(std::regex_search(text, call, buildLib));
    const std::string linked = call[1].str().substr(call[1].str().find("LIBRARIES_TO_LINK"));
    FileSet inTree;
    const std::regex lib("\\$\\{lib([a-z0-9-]+)\\}");
    for (auto it = std::sregex_iterator(linked.begin(), linked.end(), lib);
         it != std::sregex_iterator();
         ++it)
    {
        inTree.insert((*it)[1].str());
    }
    EXPECT_FALSE(standalone.empty());
    EXPECT_EQ(standalone, inTree) << Describe(standalone, inTree);
    EXPECT_EQ(standalone, waf) << Describe(standalone, waf);
}
