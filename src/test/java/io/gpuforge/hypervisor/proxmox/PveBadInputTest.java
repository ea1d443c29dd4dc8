package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.testing.ScriptedHttpsServer;
import io.gpuforge.testing.ScriptedHttpsServer.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** What a broken or hostile server sends becomes a typed error naming what was wrong; nothing else escapes. */
class PveBadInputTest {

    private static String pin() throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.demo())) {
            return sim.certificateFingerprint();
        }
    }

    private static PveClient client(ScriptedHttpsServer s, String pin, Duration timeout) throws PveApiException {
        return new PveClient(s.url(), new PveCredentials.Token("root@pam!t", "x"), Optional.of(pin), PveContract.load(),
                timeout);
    }

    private static PveApiException.Kind kindOf(Function<String, Reply> script) throws Exception {
        String pin = pin();
        try (ScriptedHttpsServer s = new ScriptedHttpsServer(script)) {
            PveClient c = client(s, pin, Duration.ofMillis(800));
            try {
                PveInventory.read(c);
                return null;
            } catch (PveApiException e) {
                assertThat(e.getMessage()).isNotBlank();
                return e.kind();
            }
        }
    }

    @Test
    void truncatedMalformedHtmlWrongTypesSlowAndReset() throws Exception {
        assertThat(kindOf(p -> Reply.of(200, "{\"data\":{\"version\":\"8.4"))).isEqualTo(PveApiException.Kind.PROTOCOL);
        assertThat(kindOf(p -> Reply.of(200, "<html><body>502 Bad Gateway</body></html>"))).isEqualTo(PveApiException.Kind.PROTOCOL);
        assertThat(kindOf(p -> Reply.of(502, "<html><body>nginx</body></html>"))).isEqualTo(PveApiException.Kind.SERVER);
        assertThat(kindOf(p -> Reply.of(200, "{\"result\":1}"))).isEqualTo(PveApiException.Kind.PROTOCOL);
        assertThat(kindOf(p -> Reply.of(200, ""))).isEqualTo(PveApiException.Kind.PROTOCOL);
        assertThat(kindOf(p -> new Reply(200, "{\"data\":{}}", 3000, false))).isEqualTo(PveApiException.Kind.NETWORK);
        assertThat(kindOf(p -> new Reply(200, "", 0, true))).isIn(PveApiException.Kind.NETWORK, PveApiException.Kind.PROTOCOL);
        assertThat(kindOf(p -> Reply.of(401, ""))).isEqualTo(PveApiException.Kind.AUTH);
        // wrong types everywhere are read as "unknown", not as a crash
        assertThat(kindOf(p -> Reply.of(200, "{\"data\":{\"version\":[1],\"cluster\":true}}"))).isNull();
    }

    @Test
    void wrongTypesInAnInventoryAreToleratedWithoutGuessing() throws Exception {
        String pin = pin();
        Function<String, Reply> script = p -> {
            if (p.endsWith("/cluster/resources")) {
                return Reply.of(200, "{\"data\":[{\"type\":\"node\",\"node\":\"pve1\",\"maxcpu\":\"32\",\"maxmem\":\"x\"},"
                        + "{\"type\":\"qemu\",\"vmid\":\"105\",\"template\":\"1\",\"name\":null},{\"type\":7},\"junk\"]}");
            }
            if (p.endsWith("/cluster/mapping/pci")) {
                return Reply.of(200, "{\"data\":[{\"id\":\"g\",\"map\":\"not-a-list\"},{\"id\":\"h\",\"map\":"
                        + "[\"node=pve1,path=0000:01:00,iommugroup=abc\"]}]}");
            }
            return Reply.of(200, "{\"data\":[]}");
        };
        try (ScriptedHttpsServer s = new ScriptedHttpsServer(script)) {
            PveInventory inv = PveInventory.read(client(s, pin, Duration.ofSeconds(5)));
            assertThat(inv.nodes()).singleElement().satisfies(n -> {
                assertThat(n.maxCpu()).isEqualTo(32);
                assertThat(n.maxMemBytes()).isZero();
            });
            assertThat(inv.vms()).singleElement().satisfies(v -> {
                assertThat(v.vmid()).isEqualTo(105);
                assertThat(v.template()).isTrue();
                assertThat(v.name()).isEmpty();
            });
            assertThat(inv.gpus()).singleElement().satisfies(g -> assertThat(g.iommuGroup()).isEmpty());
        }
    }

    /** A 40 MiB answer (more than any cluster's /cluster/resources) is refused, not read into memory. */
    @Test
    void anAnswerLargerThanTheCapIsAProtocolErrorNamingTheEndpoint() throws Exception {
        String pin = pin();
        for (boolean chunked : new boolean[] {false, true}) {
            Function<String, Reply> script = p -> p.endsWith("/cluster/resources")
                    ? Reply.repeated(200, "{\"data\":[", " ".repeat(1024), 40 * 1024, "]}", chunked)
                    : Reply.of(200, "{\"data\":[]}");
            try (ScriptedHttpsServer s = new ScriptedHttpsServer(script)) {
                assertThatThrownBy(() -> PveInventory.read(client(s, pin, Duration.ofSeconds(20))))
                        .isInstanceOf(PveApiException.class)
                        .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.PROTOCOL))
                        .hasMessageContaining("GET /cluster/resources").hasMessageContaining("more than 32 MiB");
            }
        }
    }

    /** An answer that never ends is cut off at the cap, while it is still arriving. */
    @Test
    void anEndlessAnswerIsCutOffAtTheCap() throws Exception {
        String pin = pin();
        Function<String, Reply> script = p -> p.endsWith("/version")
                ? Reply.repeated(200, "{\"data\":{\"version\":\"", "8", -1, "", true)
                : Reply.of(200, "{\"data\":[]}");
        try (ScriptedHttpsServer s = new ScriptedHttpsServer(script)) {
            PveClient c = client(s, pin, Duration.ofSeconds(20));
            assertThatThrownBy(() -> c.get("/version", Map.of())).isInstanceOf(PveApiException.class)
                    .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.PROTOCOL))
                    .hasMessageContaining("GET /version").hasMessageContaining("more than 32 MiB");
        }
    }

    /**
     * A seeded mutation fuzz of recorded answers: 5,000 mutated answers through the client's answer handling
     * and the inventory reader (the part that meets the bytes), then 100 whole inventories over HTTPS.
     * Only typed errors may come out.
     */
    @Test
    void mutationFuzzOfRecordedAnswers() throws Exception {
        Map<String, String> recorded = new LinkedHashMap<>();
        ObjectMapper sorted = new ObjectMapper().configure(JsonNodeFeature.WRITE_PROPERTIES_SORTED, true);
        String pin;
        PveClient parser;
        try (PveSimulator sim = new PveSimulator(SimCluster.demo())) {
            pin = sim.certificateFingerprint();
            parser = new PveClient(sim.url(), PveCredentials.Token.parse(sim.token()), Optional.of(pin), PveContract.load());
            for (String p : new String[] {"/version", "/cluster/status", "/cluster/resources", "/cluster/mapping/pci"}) {
                // properties sorted: the simulator's maps iterate in an order that differs from JVM to JVM,
                // and the seeded mutations must meet the same text in every run
                recorded.put(p, "{\"data\":" + sorted.writeValueAsString(parser.get(p, Map.of())) + "}");
            }
        }
        Random random = new Random(20261129L);
        int parsed = 0;
        int refused = 0;
        List<String> paths = new ArrayList<>(recorded.keySet());
        for (int i = 0; i < 5000; i += 4) {
            JsonNode[] data = new JsonNode[4];
            String last = null;
            try {
                for (int k = 0; k < 4; k++) {
                    last = mutate(recorded.get(paths.get(k)), random);
                    data[k] = parser.answer("GET", paths.get(k), 200, "OK", last);
                }
                PveInventory.from(data[0], data[1], data[2], data[3]);
                parsed++;
            } catch (PveApiException e) {
                refused++;
            } catch (RuntimeException e) {
                throw new AssertionError("untyped " + e + " for the answer " + last, e);
            }
        }
        assertThat(parsed + refused).isEqualTo(1250);
        assertThat(refused).as("some mutations must break the JSON").isPositive();
        assertThat(parsed).as("some mutations must still parse").isPositive();

        List<String> served = new ArrayList<>();
        try (ScriptedHttpsServer s = new ScriptedHttpsServer(p -> {
            String body = recorded.getOrDefault(p.substring("/api2/json".length()), "{\"data\":null}");
            synchronized (served) {
                body = mutate(body, random);
                served.add(body);
            }
            return Reply.of(200, body);
        })) {
            PveClient c = client(s, pin, Duration.ofSeconds(5));
            for (int i = 0; i < 100; i++) {
                try {
                    PveInventory.read(c);
                } catch (PveApiException e) {
                    assertThat(e.getMessage()).isNotBlank();
                } catch (RuntimeException e) {
                    throw new AssertionError("untyped " + e + " after " + served.get(served.size() - 1), e);
                }
            }
        }
    }

    static String mutate(String s, Random r) {
        StringBuilder b = new StringBuilder(s);
        int edits = 1 + r.nextInt(3);
        for (int i = 0; i < edits && b.length() > 0; i++) {
            int at = r.nextInt(b.length());
            switch (r.nextInt(6)) {
                case 0:
                    b.deleteCharAt(at);
                    break;
                case 1:
                    b.insert(at, "{}[]\",:0-e\\".charAt(r.nextInt(11)));
                    break;
                case 2:
                    b.setLength(at);
                    break;
                case 3:
                    b.setCharAt(at, (char) (32 + r.nextInt(95)));
                    break;
                case 4:
                    b.insert(at, "null");
                    break;
                default:
                    b.replace(at, Math.min(b.length(), at + 4), "\"1\"");
            }
        }
        return b.toString();
    }
}
