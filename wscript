# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil -*-
#
# The interconnect module for waf-based ns-3 releases (up to ns-3.35). Place this folder at
# contrib/interconnect of the ns-3 tree. The lists below must name the same files as
# CMakeLists.txt: the test SourceLists.CmakeAndWafAgree fails when they differ.

SOURCES = [
    'model/canonical-scheduler.cc',
    'model/dcqcn-congestion-control.cc',
    'model/dctcp-rdma-congestion-control.cc',
    'model/hpcc-congestion-control.cc',
    'model/ib-aeth-header.cc',
    'model/ib-bth-header.cc',
    'model/ib-channel.cc',
    'model/ib-congestion-control.cc',
    'model/ib-flow-control-header.cc',
    'model/ib-host-adapter.cc',
    'model/ib-lrh-header.cc',
    'model/ib-net-device.cc',
    'model/ib-remote-channel.cc',
    'model/ib-reth-header.cc',
    'model/ib-switch.cc',
    'model/interconnect-config-error.cc',
    'model/intra-host-fabric.cc',
    'model/iwarp-crc32c.cc',
    'model/iwarp-ddp-header.cc',
    'model/iwarp-listener.cc',
    'model/iwarp-mpa.cc',
    'model/iwarp-read-request-header.cc',
    'model/iwarp-socket.cc',
    'model/iwarp-terminate-header.cc',
    'model/local-rank.cc',
    'model/pcie-link.cc',
    'model/pfc-channel.cc',
    'model/pfc-header.cc',
    'model/pfc-net-device.cc',
    'model/pfc-remote-channel.cc',
    'model/rdma-channel-adapter.cc',
    'model/rdma-congestion-control.cc',
    'model/rdma-int-tag.cc',
    'model/rdma-nic.cc',
    'model/rdma-queue-pair.cc',
    'model/rdma-transport.cc',
    'model/remote-link-tag.cc',
    'model/roce-icrc-trailer.cc',
    'model/roce-switch-mmu.cc',
    'model/roce-switch.cc',
    'model/timely-congestion-control.cc',
    'model/wire-clock.cc',
    'helper/collective-helper.cc',
    'helper/command-line-values.cc',
    'helper/deadlock-check.cc',
    'helper/fabric-helper.cc',
    'helper/fabric.cc',
    'helper/fat-tree-helper.cc',
    'helper/flow-size-distribution.cc',
    'helper/flow-statistics.cc',
    'helper/ib-pcap-helper.cc',
    'helper/ib-rc-transport.cc',
    'helper/ib-subnet-helper.cc',
    'helper/intra-host-helper.cc',
    'helper/iwarp-helper.cc',
    'helper/message-transport.cc',
    'helper/moe-traffic.cc',
    'helper/poisson-traffic.cc',
    'helper/rail-optimized-helper.cc',
    'helper/roce-helper.cc',
    'helper/roce-time-series.cc',
    'helper/run-record.cc',
    'helper/scenario.cc',
    'helper/scenario-runner.cc',
    'helper/spine-leaf-helper.cc',
    'helper/three-tier-helper.cc',
    'helper/torus-helper.cc',
]

HEADERS = [
    'model/canonical-scheduler.h',
    'model/dcqcn-congestion-control.h',
    'model/dctcp-rdma-congestion-control.h',
    'model/hpcc-congestion-control.h',
    'model/ib-aeth-header.h',
    'model/ib-bth-header.h',
    'model/ib-channel.h',
    'model/ib-congestion-control.h',
    'model/ib-flow-control-header.h',
    'model/ib-host-adapter.h',
    'model/ib-lrh-header.h',
    'model/ib-net-device.h',
    'model/ib-remote-channel.h',
    'model/ib-reth-header.h',
    'model/ib-switch.h',
    'model/interconnect-compat.h',
    'model/interconnect-config-error.h',
    'model/intra-host-fabric.h',
    'model/iwarp-crc32c.h',
    'model/iwarp-ddp-header.h',
    'model/iwarp-listener.h',
    'model/iwarp-mpa.h',
    'model/iwarp-read-request-header.h',
    'model/iwarp-socket.h',
    'model/iwarp-terminate-header.h',
    'model/local-rank.h',
    'model/pcie-link.h',
    'model/pfc-channel.h',
    'model/pfc-header.h',
    'model/pfc-net-device.h',
    'model/pfc-remote-channel.h',
    'model/rdma-channel-adapter.h',
    'model/rdma-congestion-control.h',
    'model/rdma-int-tag.h',
    'model/rdma-nic.h',
    'model/rdma-psn.h',
    'model/rdma-queue-pair.h',
    'model/rdma-transport.h',
    'model/remote-link-tag.h',
    'model/roce-icrc-trailer.h',
    'model/roce-switch-mmu.h',
    'model/roce-switch.h',
    'model/timely-congestion-control.h',
    'model/wire-clock.h',
    'helper/collective-helper.h',
    'helper/command-line-values.h',
    'helper/deadlock-check.h',
    'helper/fabric-helper.h',
    'helper/fabric.h',
    'helper/fat-tree-helper.h',
    'helper/flow-size-distribution.h',
    'helper/flow-statistics.h',
    'helper/flow-spec.h',
    'helper/ib-pcap-helper.h',
    'helper/ib-rc-transport.h',
    'helper/ib-subnet-helper.h',
    'helper/intra-host-helper.h',
    'helper/iwarp-helper.h',
    'helper/message-transport.h',
    'helper/moe-traffic.h',
    'helper/poisson-traffic.h',
    'helper/rail-optimized-helper.h',
    'helper/roce-helper.h',
    'helper/roce-time-series.h',
    'helper/run-record.h',
    'helper/scenario.h',
    'helper/scenario-runner.h',
    'helper/spine-leaf-helper.h',
    'helper/three-tier-helper.h',
    'helper/torus-helper.h',
]

TESTS = [
    'test/canonical-scheduler-test.cc',
    'test/collective-helper-test.cc',
    'test/command-line-values-test.cc',
    'test/congestion-control-test.cc',
    'test/dcqcn-test.cc',
    'test/dctcp-rdma-test.cc',
    'test/deadlock-check-test.cc',
    'test/fabric-helper-test.cc',
    'test/flow-size-distribution-test.cc',
    'test/flow-statistics-test.cc',
    'test/hpcc-test.cc',
    'test/ib-congestion-control-test.cc',
    'test/ib-headers-test.cc',
    'test/ib-net-device-test.cc',
    'test/ib-rc-test.cc',
    'test/ib-subnet-test.cc',
    'test/intra-host-fabric-test.cc',
    'test/intra-host-helper-test.cc',
    'test/iwarp-framing-test.cc',
    'test/iwarp-socket-test.cc',
    'test/message-transport-test.cc',
    'test/pfc-header-test.cc',
    'test/pfc-net-device-test.cc',
    'test/poisson-traffic-test.cc',
    'test/rdma-nic-test.cc',
    'test/rdma-psn-test.cc',
    'test/rdma-queue-pair-test.cc',
    'test/roce-icrc-test.cc',
    'test/roce-switch-remap-test.cc',
    'test/roce-switch-test.cc',
    'test/run-record-test.cc',
    'test/scenario-test.cc',
    'test/source-lists-test.cc',
    'test/timely-test.cc',
    'test/wire-clock-test.cc',
]

EXAMPLES = [
    'cc-dumbbell',
    'custom-congestion-control',
    'iwarp-vs-roce',
    'fabric-explorer',
    'ib-credit-link',
    'interconnect-run',
    'intra-host-topo',
    'quickstart',
    'roce-incast',
]

NS3_MODULES = ['core', 'network', 'internet', 'applications', 'point-to-point']


def options(opt):
    pass


def configure(conf):
    # Boost.Graph (header-only) computes the fabric helpers' routes and deadlock checks.
    conf.check_cxx(header_name='boost/graph/adjacency_list.hpp',
                   msg='Checking for Boost.Graph (libboost-graph-dev)', mandatory=True)
    # The GoogleTest suites are optional under waf: built when libgtest is found.
    conf.env['INTERCONNECT_GTEST'] = conf.check_cxx(lib=['gtest_main', 'gtest', 'pthread'],
                                                   uselib_store='INTERCONNECT_GTEST',
                                                   mandatory=False)


def _ns3_minor(bld):
    version = bld.srcnode.find_node('VERSION').read().strip()  # e.g. "3.35"
    return version.split('.')[1]


def build(bld):
    defines = ['INTERCONNECT_NS3_VERSION_MINOR=%s' % _ns3_minor(bld),
               'INTERCONNECT_DATA_DIR="%s"' % bld.path.find_dir('data').abspath()]

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
