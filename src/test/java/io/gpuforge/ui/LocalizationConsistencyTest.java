package io.gpuforge.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.connections.SecretsService;
import io.gpuforge.app.settings.KnownHostsFile;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TaskMonitor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every key the UI uses exists in English and Simplified Chinese, and the two bundles hold the same keys.
 * Keys are found as string literals in {@code ui/} sources (and {@code %key} in FXML); keys built at run
 * time from enums are enumerated here.
 */
class LocalizationConsistencyTest {

    private static final Path UI_SOURCES = Path.of("src/main/java/io/gpuforge/ui");
    private static final Pattern LITERAL = Pattern.compile("\"([a-z][A-Za-z0-9]*(?:\\.[A-Za-z0-9-]+)+)\"");
    private static final Pattern FXML_KEY = Pattern.compile("\"%([a-zA-Z0-9.-]+)\"");
    private static final Set<String> NOT_KEYS = Set.copyOf(I18n.BUNDLES);

    static Set<String> usedKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main"))) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(".java") && p.startsWith(UI_SOURCES)) {
                    Matcher m = LITERAL.matcher(Files.readString(p));
                    while (m.find()) {
                        if (!NOT_KEYS.contains(m.group(1)) && !m.group(1).endsWith(".")) {
                            keys.add(m.group(1));
                        }
                    }
                } else if (name.endsWith(".fxml")) {
                    Matcher m = FXML_KEY.matcher(Files.readString(p));
                    while (m.find()) {
                        keys.add(m.group(1));
                    }
                }
            }
        }
        for (ThemeChoice t : ThemeChoice.values()) {
            keys.add("prefs.theme." + t.name().toLowerCase(Locale.ROOT));
        }
        for (KnownHostsFile f : KnownHostsFile.values()) {
            keys.add("prefs.hostkeys." + f.name().toLowerCase(Locale.ROOT));
        }
        for (TaskMonitor.State s : TaskMonitor.State.values()) {
            keys.add("tasks.state." + s.name().toLowerCase(Locale.ROOT));
        }
        for (SecretsService.State s : SecretsService.State.values()) {
            keys.add("prefs.secrets.state." + s.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        for (io.gpuforge.domain.host.HostFacts.IommuReason r : io.gpuforge.domain.host.HostFacts.IommuReason.values()) {
            keys.add("iommu.reason." + r.name().toLowerCase(Locale.ROOT));
        }
        for (io.gpuforge.domain.pci.Isolation i : io.gpuforge.domain.pci.Isolation.values()) {
            keys.add("iommu.group.gpu." + io.gpuforge.ui.iommu.IommuTable.styleOf(i));
        }
        for (io.gpuforge.ui.connections.AddConnectionViewModel.Kind k : io.gpuforge.ui.connections.AddConnectionViewModel.Kind.values()) {
            keys.add("connection.add.kind." + k.name().toLowerCase(Locale.ROOT));
        }
        for (io.gpuforge.domain.vm.VmState v : io.gpuforge.domain.vm.VmState.values()) {
            keys.add("vm.state." + v.json());
        }
        for (io.gpuforge.domain.connections.ConnectionInfo.Kind k : io.gpuforge.domain.connections.ConnectionInfo.Kind.values()) {
            keys.add("connection.kind." + k.db());
        }
        // each wizard's step titles: <feature>.wizard.step.<step> (WizardFrame.stepKey)
        for (String[] wizard : new String[][] {{"passthrough", "io.gpuforge.ui.passthrough.PassthroughWizardModel$Step"},
                {"share", "io.gpuforge.ui.share.ContainerWizardModel$Step"},
                {"vmcreate", "io.gpuforge.ui.vmcreate.CreateVmWizardModel$Step"}}) {
            try {
                for (Object step : Class.forName(wizard[1]).getEnumConstants()) {
                    keys.add(io.gpuforge.ui.common.WizardFrame.stepKey(wizard[0], (Enum<?>) step));
                }
            } catch (ClassNotFoundException e) {
                throw new AssertionError("the wizard's steps moved: " + wizard[1], e);
            }
        }
        // toolbar buttons show the ".short" form of their menu item's key
        for (String k : new HashSet<>(keys)) {
            if (k.startsWith("action.") && !k.endsWith(".short")) {
                keys.add(k + ".short");
            }
        }
        return keys;
    }

    @Test
    void everyUsedKeyExistsInBothLanguages() throws IOException {
        Set<String> used = usedKeys();
        assertThat(used).hasSizeGreaterThan(60).contains("connection.local", "prefs.theme.dark", "action.refresh.short");
        for (Locale l : new Locale[] {Locale.ENGLISH, Locale.SIMPLIFIED_CHINESE}) {
            Set<String> present = I18n.load(l).keySet();
            assertThat(used).as("keys missing for %s", l).allMatch(present::contains, "present in " + l);
        }
    }

    @Test
    void bothBundlesHoldTheSameKeysAndTheChineseOneIsTranslated() {
        ResourceBundle en = I18n.load(Locale.ENGLISH);
        ResourceBundle zh = I18n.load(Locale.SIMPLIFIED_CHINESE);
        assertThat(new TreeSet<>(zh.keySet())).isEqualTo(new TreeSet<>(en.keySet()));
        assertThat(zh.getLocale()).isEqualTo(Locale.SIMPLIFIED_CHINESE);
        long untranslated = en.keySet().stream().filter(k -> !k.equals("app.title"))
                .filter(k -> en.getString(k).equals(zh.getString(k))).count();
        assertThat(untranslated).as("strings identical in both languages").isZero();
    }

    @Test
    void unusedKeysAreNotLeftBehind() throws IOException {
        Set<String> used = usedKeys();
        Set<String> unused = new TreeSet<>(I18n.load(Locale.ENGLISH).keySet());
        unused.removeAll(used);
        assertThat(unused).isEmpty();
    }

    @Test
    void everyKeyLivesInOneFeatureBundleAndEachBundleExistsInBothLanguages() {
        for (Locale l : new Locale[] {Locale.ENGLISH, Locale.SIMPLIFIED_CHINESE}) {
            Set<String> seen = new TreeSet<>();
            for (String name : I18n.BUNDLES) {
                ResourceBundle b = I18n.loadOne(name, l);
                assertThat(b.getLocale()).as(name).isEqualTo(l.equals(Locale.ENGLISH) ? Locale.ROOT : l);
                for (String k : b.keySet()) {
                    assertThat(seen.add(k)).as("%s is defined twice (again in %s)", k, name).isTrue();
                }
            }
        }
    }

    @Test
    void missingKeyIsVisibleNotACrash() {
        I18n i18n = new I18n(Locale.ENGLISH);
        assertThat(i18n.get("no.such.key")).isEqualTo("!no.such.key!");
        assertThat(i18n.get("host.cpu.threads", 16)).isEqualTo("16 threads");
        i18n.setLocale(Locale.SIMPLIFIED_CHINESE);
        assertThat(i18n.get("connection.local")).isEqualTo("本机");
    }
}
