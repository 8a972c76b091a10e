# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil -*-
#
# The interconnect module for waf-based ns-3 releases (up to ns-3.35). Place this folder at
# contrib/interconnect of the ns-3 tree. The lists below must name the same files as
# CMakeLists.txt: the test SourceLists.CmakeAndWafAgree fails when they differ.

SOURCES = [
    'helper/fabric/fabric-helper.cc',
    'helper/fabric/fabric.cc',
    'helper/fabric/fat-tree-helper.cc',
    'helper/fabric/two-dc-helper.cc',
    'helper/fabric/rail-optimized-helper.cc',
    'helper/fabric/spine-leaf-helper.cc',
    'helper/fabric/three-tier-helper.cc',
    'helper/fabric/torus-helper.cc',
    'helper/infiniband/ib-pcap-helper.cc',
    'helper/infiniband/ib-rc-transport.cc',
    'helper/infiniband/sharp-aggregation-manager.cc',
    'helper/infiniband/ib-subnet-helper.cc',
    'helper/intra-host/intra-host-helper.cc',
    'helper/iwarp/iwarp-helper.cc',
    'helper/iwarp/iwarp-transport.cc',
    'helper/roce/deadlock-check.cc',
    'helper/roce/pfc-deadlock-monitor.cc',
    'helper/roce/ethernet-transport.cc',
    'helper/roce/roce-helper.cc',
    'helper/roce/roce-transport.cc',
    'helper/roce/roce-time-series.cc',
    'helper/runner/attribute-defaults.cc',
    'helper/runner/command-line-values.cc',
    'helper/runner/flow-statistics.cc',
    'helper/runner/congestion-state-recorder.cc',
    'helper/runner/port-recorder.cc',
    'helper/runner/run-record.cc',
    'helper/runner/scenario-runner.cc',
    'helper/runner/scenario.cc',
    'helper/workload/collective-helper.cc',
    'helper/workload/flow-size-distribution.cc',
    'helper/workload/message-transport.cc',
    'helper/workload/moe-traffic.cc',
    'helper/workload/poisson-traffic.cc',
    'helper/workload/workload-kind.cc',
    'model/distributed/canonical-scheduler.cc',
    'model/distributed/ib-remote-channel.cc',
    'model/distributed/local-rank.cc',
    'model/distributed/pfc-remote-channel.cc',
    'model/distributed/remote-link-tag.cc',
    'model/infiniband/ib-channel.cc',
    'model/infiniband/ib-flow-control-header.cc',
    'model/infiniband/ib-host-adapter.cc',
    'model/infiniband/ib-lrh-header.cc',
    'model/infiniband/ib-net-device.cc',
    'model/infiniband/ib-switch.cc',
    'model/interconnect-config-error.cc',
    'model/interconnect-events.cc',
    'model/interconnect-simulator-impl.cc',
    'model/intra-host/intra-host-fabric.cc',
    'model/intra-host/pcie-link.cc',
    'model/iwarp/iwarp-crc32c.cc',
    'model/iwarp/iwarp-ddp-header.cc',
    'model/iwarp/iwarp-listener.cc',
    'model/iwarp/iwarp-mpa.cc',
    'model/iwarp/iwarp-read-request-header.cc',
    'model/iwarp/iwarp-socket.cc',
    'model/iwarp/iwarp-terminate-header.cc',
    'model/packet-byte-address.cc',
    'model/rdma/dcqcn-congestion-control.cc',
    'model/rdma/dctcp-rdma-congestion-control.cc',
    'model/rdma/nscc-congestion-control.cc',
    'model/rdma/hpcc-congestion-control.cc',
    'model/rdma/ib-aeth-header.cc',
    'model/rdma/ib-bth-header.cc',
    'model/rdma/ib-congestion-control.cc',
    'model/rdma/ib-reth-header.cc',
    'model/rdma/rdma-channel-adapter.cc',
    'model/rdma/rdma-congestion-control.cc',
    'model/rdma/rdma-int-tag.cc',
    'model/rdma/rdma-packet-pool.cc',
    'model/rdma/rdma-queue-pair.cc',
    'model/rdma/rdma-transport.cc',
    'model/rdma/timely-congestion-control.cc',
    'model/ring-queue.cc',
    'model/roce/pfc-channel.cc',
    'model/roce/pfc-header.cc',
    'model/roce/pfc-net-device.cc',
    'model/roce/rdma-nic.cc',
    'model/roce/roce-icrc-trailer.cc',
    'model/roce/roce-switch-mmu.cc',
    'model/roce/roce-switch.cc',
    'model/sharp/sharp-aggregation-node.cc',
    'model/sharp/sharp-header.cc',
    'model/slot-pool.cc',
    'model/wire-clock.cc',
]

HEADERS = [
    'helper/fabric/fabric-helper.h',
    'helper/fabric/fabric.h',
    'helper/fabric/fat-tree-helper.h',
    'helper/fabric/two-dc-helper.h',
    'helper/fabric/rail-optimized-helper.h',
    'helper/fabric/spine-leaf-helper.h',
    'helper/fabric/three-tier-helper.h',
    'helper/fabric/torus-helper.h',
    'helper/infiniband/ib-pcap-helper.h',
    'helper/infiniband/ib-rc-transport.h',
    'helper/infiniband/sharp-aggregation-manager.h',
    'helper/infiniband/ib-subnet-helper.h',
    'helper/intra-host/intra-host-helper.h',
    'helper/iwarp/iwarp-helper.h',
    'helper/iwarp/iwarp-transport.h',
    'helper/roce/deadlock-check.h',
    'helper/roce/pfc-deadlock-monitor.h',
    'helper/roce/ethernet-transport.h',
    'helper/roce/roce-helper.h',
    'helper/roce/roce-transport.h',
    'helper/roce/roce-time-series.h',
    'helper/runner/attribute-defaults.h',
    'helper/runner/command-line-values.h',
    'helper/runner/flow-statistics.h',
    'helper/runner/congestion-state-recorder.h',
    'helper/runner/port-recorder.h',
    'helper/runner/run-record.h',
    'helper/runner/scenario-runner.h',
    'helper/runner/scenario.h',
    'helper/workload/collective-helper.h',
    'helper/workload/flow-size-distribution.h',
    'helper/workload/flow-spec.h',
    'helper/workload/in-network-reduction.h',
    'helper/workload/message-transport.h',
    'helper/workload/moe-traffic.h',
    'helper/workload/poisson-traffic.h',
    'helper/workload/workload-kind.h',
    'model/distributed/canonical-scheduler.h',
    'model/distributed/ib-remote-channel.h',
    'model/distributed/local-rank.h',
    'model/distributed/pfc-remote-channel.h',
    'model/distributed/remote-link-tag.h',
    'model/infiniband/ib-channel.h',
    'model/infiniband/ib-flow-control-header.h',
    'model/infiniband/ib-host-adapter.h',
    'model/infiniband/ib-lrh-header.h',
    'model/infiniband/ib-net-device.h',
    'model/infiniband/ib-switch.h',
    'model/interconnect-compat.h',
    'model/interconnect-config-error.h',
    'model/intra-host/intra-host-fabric.h',
    'model/intra-host/pcie-link.h',
    'model/iwarp/iwarp-crc32c.h',
    'model/iwarp/iwarp-ddp-header.h',
    'model/iwarp/iwarp-listener.h',
    'model/iwarp/iwarp-mpa.h',
    'model/iwarp/iwarp-read-request-header.h',
    'model/iwarp/iwarp-socket.h',
    'model/iwarp/iwarp-terminate-header.h',
    'model/rdma/dcqcn-congestion-control.h',
    'model/rdma/dctcp-rdma-congestion-control.h',
    'model/rdma/nscc-congestion-control.h',
    'model/rdma/hpcc-congestion-control.h',
    'model/rdma/ib-aeth-header.h',
    'model/rdma/ib-bth-header.h',
    'model/rdma/ib-congestion-control.h',
    'model/rdma/ib-reth-header.h',
    'model/rdma/rdma-channel-adapter.h',
    'model/rdma/rdma-congestion-control.h',
    'model/rdma/rdma-int-tag.h',
    'model/rdma/rdma-packet-pool.h',
    'model/rdma/rdma-psn.h',
    'model/rdma/rdma-queue-pair.h',
    'model/rdma/rdma-transport.h',
    'model/rdma/timely-congestion-control.h',
    'model/roce/pfc-channel.h',
    'model/roce/pfc-header.h',
    'model/roce/pfc-net-device.h',
    'model/roce/rdma-nic.h',
    'model/roce/roce-icrc-trailer.h',
    'model/roce/roce-switch-mmu.h',
    'model/roce/roce-switch.h',
    'model/sharp/sharp-aggregation-node.h',
    'model/sharp/sharp-header.h',
    'model/flagged-traced-callback.h',
    'model/interconnect-events.h',
    'model/interconnect-simulator-impl.h',
    'model/packet-byte-address.h',
    'model/packet-ref.h',
    'model/ring-queue.h',
    'model/slot-pool.h',
    'model/wire-clock.h',
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
    'test/interconnect-simulator-impl-test.cc',
    'test/intra-host-fabric-test.cc',
    'test/intra-host-helper-test.cc',
    'test/irn-test.cc',
    'test/long-haul-test.cc',
    'test/uet-test.cc',
    'test/iwarp-framing-test.cc',
    'test/iwarp-socket-test.cc',
    'test/message-transport-test.cc',
    'test/packed-frame-test.cc',
    'test/pfc-header-test.cc',
    'test/pfc-net-device-test.cc',
    'test/pfc-watchdog-test.cc',
    'test/pfc-deadlock-monitor-test.cc',
    'test/poisson-traffic-test.cc',
    'test/rdma-nic-test.cc',
    'test/rdma-psn-test.cc',
    'test/rdma-queue-pair-test.cc',
    'test/roce-icrc-test.cc',
    'test/roce-switch-remap-test.cc',
    'test/ring-queue-test.cc',
    'test/roce-switch-test.cc',
    'test/sharp-test.cc',
    'test/slot-pool-test.cc',
    'test/run-record-test.cc',
    'test/scenario-test.cc',
    'test/source-lists-test.cc',
    'test/timely-test.cc',
    'test/wire-clock-test.cc',
    'test/congestion-state-recorder-test.cc',
    'test/trace-paths-test.cc',
    'test/workload-kind-test.cc',
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
