package io.gpuforge.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.words.Words;
import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.diagnose.LogInput;
import io.gpuforge.testing.LatinText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The diagnosis speaks both languages (the bundles key by key: {@code WordsTest}): every cause
 * has its title, explanation and fix in both; what every real and written case yields renders in Chinese with no
 * English sentence left and no key missing; and every key of the bundle is one the engine (or what collects its logs) can
 * name.
 */
class DiagnosisWordsTest {

    private static final Words EN = new Words(Locale.ENGLISH);
    private static final java.util.ResourceBundle EN_BUNDLE = Words.load("diagnose.messages", Locale.ENGLISH);
    private static final java.util.ResourceBundle ZH_BUNDLE = Words.load("diagnose.messages",
            Locale.SIMPLIFIED_CHINESE);
    private static final Words ZH = new Words(Locale.SIMPLIFIED_CHINESE);

    @Test
    void everyCauseHasItsTitleExplanationAndFixInBothLanguages() {
        for (Signatures.Cause c : Signatures.TABLE) {
            for (String part : List.of("title", "why", "fix")) {
                String key = "cause." + c.id() + "." + part;
                assertThat(EN_BUNDLE.containsKey(key)).as(key).isTrue();
                assertThat(ZH_BUNDLE.containsKey(key)).as(key).isTrue();
            }
        }
        assertThat(Signatures.TABLE).hasSize(17);
    }

    @Test
    void everyCaseRendersInChineseWithNoEnglishSentenceLeft() throws Exception {
        List<Diagnosis> all = cases();
        Set<String> causes = all.stream().flatMap(d -> d.causes().stream()).map(Finding::id)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(causes).as("the cases reach every cause").hasSize(Signatures.TABLE.size());
        for (Diagnosis d : all) {
            for (Message m : messages(d)) {
                String zh = ZH.text(m);
                assertThat(zh).as(m.key()).doesNotContain("!").doesNotContain("{");
                assertThat(LatinText.sentences(zh)).as("English left in %s: %s", m.key(), zh).isEmpty();
                assertThat(EN.text(m)).as(m.key()).doesNotContain("!").doesNotContain("{");
            }
        }
    }

    @Test
    void theEnglishReadsAsBeforeAndTheChineseIsChinese() throws Exception {
        Finding f = Diagnoser.diagnose(List.of(LogInput.of("pasted",
                DiagnoseCases.fixture("01-pve-igd-slot2-in-use-by-vga.txt"))), List.of()).causes().get(0);
        assertThat(EN.text(f.explanation())).isEqualTo("The Intel iGPU must sit at 00:02.0 in the guest (legacy IGD),"
                + " and the VM's emulated VGA card already has slot 2.");
        assertThat(ZH.text(f.explanation())).startsWith("Intel 核显在客户机中必须位于 00:02.0");
        assertThat(ZH.text(f.fix().plan().orElseThrow().vmChanges().get(0).description())).isEqualTo("不要模拟显示设备");
        assertThat(ZH.text(Message.of("reason.noMatch", 1))).contains("1 行");
        assertThat(EN.text(Message.of("reason.noMatch", 1))).endsWith("its one line");
        assertThat(EN.text(Message.of("reason.noMatch", 1200))).endsWith("its 1,200 lines");
    }

    @Test
    void everyKeyOfTheBundleIsOneTheEngineCanName() throws IOException {
        String engine;
        try (Stream<Path> files = Stream.concat(Files.list(Path.of("src/main/java/io/gpuforge/diagnose")),
                Files.list(Path.of("src/main/java/io/gpuforge/app/diagnose")))) {
            engine = files.map(DiagnosisWordsTest::read).collect(Collectors.joining("\n"));
        }
        Set<String> ids = Signatures.TABLE.stream().map(Signatures.Cause::id).collect(Collectors.toSet());
        List<String> unused = new ArrayList<>();
        for (String key : EN_BUNDLE.keySet()) {
            if (key.startsWith("cause.")) {
                String rest = key.substring("cause.".length());
                String id = ids.stream().filter(i -> rest.startsWith(i + ".")).findFirst().orElse(null);
                String part = id == null ? rest : rest.substring(id.length() + 1);
                boolean named = id != null && (part.equals("title") || engine.contains("\"" + part + "\"")
                        || engine.contains("\"" + part.replaceFirst("^check\\.", "") + "\""));
                if (!named) {
                    unused.add(key);
                }
            } else if (key.startsWith("source.")) {
                // a kind of log, named as "source." + its id
                if (!engine.contains("\"source.\" + ") || io.gpuforge.domain.diagnose.LogSource.byId(
                        key.substring("source.".length())).isEmpty()) {
                    unused.add(key);
                }
            } else if (!key.equals("separator") && !engine.contains("\"" + key + "\"")) {
                unused.add(key);
            }
        }
        assertThat(unused).isEmpty();
    }

    private static List<Diagnosis> cases() throws Exception {
        List<String> texts = new ArrayList<>();
        for (Map.Entry<String, String> e : DiagnoseCases.fixtureCauses().entrySet()) {
            texts.add(DiagnoseCases.fixture(e.getKey()));
        }
        for (String f : DiagnoseCases.writtenFiles()) {
            texts.add(DiagnoseCases.written(f));
        }
        texts.add("");
        List<Diagnosis> out = new ArrayList<>();
        for (String t : texts) {
            out.add(Diagnoser.diagnose(List.of(LogInput.of("pasted", t)), List.of()));
        }
        return out;
    }

    /** Every message of a diagnosis: each cause's title, explanation, fix, plan and weight words, the reason. */
    private static List<Message> messages(Diagnosis d) {
        List<Message> out = new ArrayList<>();
        for (Finding f : d.causes()) {
            out.add(f.title());
            out.add(f.explanation());
            out.add(f.fix().text());
            out.add(f.weight().said());
            f.fix().plan().ifPresent(p -> p.vmChanges().stream().map(FixPlan.VmEdit::description).forEach(out::add));
        }
        d.reason().ifPresent(out::add);
        return out;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
