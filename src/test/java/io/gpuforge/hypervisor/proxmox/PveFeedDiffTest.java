package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.VmRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The change feed's comparison of two polls of /cluster/resources and /cluster/tasks, with PVE's answer shapes. */
class PveFeedDiffTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s.replace('\'', '"'));
    }

    private static String node(String name, String status) {
        return "{'id':'node/" + name + "','type':'node','node':'" + name + "','status':'" + status + "','maxcpu':32}";
    }

    private static String vm(int vmid, String node, String name, String status) {
        return "{'id':'qemu/" + vmid + "','type':'qemu','vmid':" + vmid + ",'node':'" + node + "','name':'" + name
                + "','status':'" + status + "','template':0,'maxmem':8589934592}";
    }

    private static PveFeedDiff.Snapshot snap(String resources, String tasks) throws Exception {
        return PveFeedDiff.Snapshot.of(json(resources), json(tasks));
    }

    private static final String BASE = "[" + node("pve1", "online") + "," + node("pve2", "online") + ","
            + vm(101, "pve1", "train-01", "running") + "," + vm(102, "pve1", "dev-01", "stopped") + ","
            + "{'id':'storage/pve1/local','type':'storage','node':'pve1','storage':'local','status':'available'}]";

    @Test
    void nothingChangedIsNoEvent() throws Exception {
        assertThat(PveFeedDiff.diff(snap(BASE, "[]"), snap(BASE, "[]"))).isEmpty();
    }

    @Test
    void aStartedVmIsAStateChangeOfThatVm() throws Exception {
        String after = BASE.replace(vm(102, "pve1", "dev-01", "stopped"), vm(102, "pve1", "dev-01", "running"));
        List<ChangeEvent> events = PveFeedDiff.diff(snap(BASE, "[]"), snap(after, "[]"));
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(ChangeEvent.Kind.VM_STATE);
            assertThat(e.vm()).contains(new VmRef("pve1", "102"));
            assertThat(e.node()).contains("pve1");
            assertThat(e.detail()).contains("stopped").contains("running");
        });
    }

    @Test
    void addedRemovedRenamedMigratedVmsAndANodeGoingOffline() throws Exception {
        String after = "[" + node("pve1", "online") + "," + node("pve2", "offline") + ","
                + vm(101, "pve2", "train-01", "running") + "," + vm(103, "pve1", "new-vm", "stopped") + "]";
        String renamed = BASE.replace("dev-01", "dev-02");
        assertThat(PveFeedDiff.diff(snap(BASE, "[]"), snap(after, "[]"))).extracting(ChangeEvent::kind, e -> e.vm()
                .map(VmRef::toString).orElse(e.node().orElse(""))).containsExactlyInAnyOrder(
                tuple(ChangeEvent.Kind.VM_REMOVED, "101@pve1"),
                tuple(ChangeEvent.Kind.VM_ADDED, "101@pve2"),
                tuple(ChangeEvent.Kind.VM_ADDED, "103@pve1"),
                tuple(ChangeEvent.Kind.VM_REMOVED, "102@pve1"),
                tuple(ChangeEvent.Kind.NODE_STATE, "pve2"));
        assertThat(PveFeedDiff.diff(snap(BASE, "[]"), snap(renamed, "[]"))).singleElement()
                .satisfies(e -> assertThat(e.kind()).isEqualTo(ChangeEvent.Kind.VM_CONFIG));
    }

    @Test
    void aTaskThatStartsAndOneThatEndsAreTaskEventsNamingTheirVm() throws Exception {
        String running = "[{'upid':'UPID:pve1:0000A1B2:00C0FFEE:6712A3F0:qmstart:102:root@pam!gpuforge:','node':'pve1',"
                + "'type':'qmstart','id':'102','user':'root@pam!gpuforge','starttime':1729274864}]";
        String ended = running.replace("'starttime':1729274864", "'starttime':1729274864,'endtime':1729274866,'status':'OK'");
        String other = "[{'upid':'UPID:pve2:00001234:00005678:6712A3F0:aptupdate::root@pam:','node':'pve2',"
                + "'type':'aptupdate','id':'','user':'root@pam','starttime':1729274864}]";
        List<ChangeEvent> started = PveFeedDiff.diff(snap(BASE, "[]"), snap(BASE, running));
        assertThat(started).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(ChangeEvent.Kind.TASK);
            assertThat(e.vm()).contains(new VmRef("pve1", "102"));
            assertThat(e.detail()).isEqualTo("qmstart 102 started");
        });
        assertThat(PveFeedDiff.diff(snap(BASE, running), snap(BASE, ended))).singleElement()
                .satisfies(e -> assertThat(e.detail()).isEqualTo("qmstart 102: OK"));
        assertThat(PveFeedDiff.diff(snap(BASE, ended), snap(BASE, ended))).as("an ended task is told once").isEmpty();
        assertThat(PveFeedDiff.diff(snap(BASE, "[]"), snap(BASE, other))).singleElement().satisfies(e -> {
            assertThat(e.vm()).as("a node task names no VM").isEmpty();
            assertThat(e.node()).contains("pve2");
        });
    }

    @Test
    void aBurstOfChangesIsOneInventoryEvent() throws Exception {
        StringBuilder many = new StringBuilder("[" + node("pve1", "online"));
        for (int i = 0; i < PveFeedDiff.BURST + 1; i++) {
            many.append(',').append(vm(200 + i, "pve1", "bulk-" + i, "stopped"));
        }
        String after = many.append(']').toString();
        List<ChangeEvent> events = PveFeedDiff.diff(snap("[" + node("pve1", "online") + "]", "[]"), snap(after, "[]"));
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(ChangeEvent.Kind.INVENTORY);
            assertThat(e.detail()).startsWith((PveFeedDiff.BURST + 1) + " changes");
        });
        String fewer = "[" + node("pve1", "online") + "," + vm(200, "pve1", "bulk-0", "stopped") + "]";
        assertThat(PveFeedDiff.diff(snap("[" + node("pve1", "online") + "]", "[]"), snap(fewer, "[]")))
                .extracting(ChangeEvent::kind).containsExactly(ChangeEvent.Kind.VM_ADDED);
    }

    @Test
    void oddEntriesAreLeftOutNotFatal() throws Exception {
        String odd = "[{'type':'qemu','node':'pve1'},{'type':'node'},'text',{'type':'qemu','vmid':'105','node':'pve1',"
                + "'status':'running'}]";
        assertThat(PveFeedDiff.Snapshot.of(json(odd), json("[{'node':'pve1'}]")).vms()).containsOnlyKeys("105");
    }
}
