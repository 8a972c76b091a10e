# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil -*-
#
# The interconnect module for waf-based ns-3 releases (up to ns-3.35). Place this folder at
# contrib/interconnect of the ns-3 tree. The lists below must name the same files as
# CMakeLists.txt: the test SourceLists.CmakeAndWafAgree fails when they differ.

SOURCES = [
    'helper/run-record.cc',
]

HEADERS = [
    'model/interconnect-compat.h',
    'helper/run-record.h',
]

TESTS = [
    'test/run-record-test.cc',
    'test/source-lists-test.cc',
]

EXAMPLES = [
    'quickstart',
]

NS3_MODULES = ['core', 'network', 'internet', 'applications', 'point-to-point']


def options(opt):
    pass


def configure(conf):
    # The GoogleTest suites are optional under waf: built when libgtest is found.
    conf.env['INTERCONNECT_GTEST'] = conf.check_cxx(lib=['gtest_main', 'gtest', 'pthread'],
                                                   uselib_store='INTERCONNECT_GTEST',
                                                   mandatory=False)


def _ns3_minor(bld):
    version = bld.srcnode.find_node('VERSION').read().strip()  # e.g. "3.35"
    return version.split('.')[1]


def build(bld):
    defines = ['INTERCONNECT_NS3_VERSION_MINOR=%s' % _ns3_minor(bld)]

    module = bld.create_ns3_module('interconnect', NS3_MODULES)
    module.source = SOURCES
    module.defines = defines
    module.export_defines = defines

    headers = bld(features='ns3header')
    headers.module = 'interconnect'
    headers.source = HEADERS

    if bld.env['ENABLE_EXAMPLES']:
        for name in EXAMPLES:
            program = bld.create_ns3_program(name, ['interconnect'] + NS3_MODULES)
            program.source = 'examples/%s.cc' % name

    if bld.env['ENABLE_TESTS'] and bld.env['INTERCONNECT_GTEST']:
        source_dir = bld.path.abspath()
        for source in TESTS:
            name = 'interconnect-' + source.split('/')[-1][:-3]
            program = bld.create_ns3_program(name, ['interconnect'] + NS3_MODULES)
            program.source = source
            program.uselib = 'INTERCONNECT_GTEST'
            program.defines = defines + ['INTERCONNECT_SOURCE_DIR="%s"' % source_dir]
