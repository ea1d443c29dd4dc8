package io.gpuforge.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.host.OsFamily;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The OS tools are not on this machine; their real outputs are replayed through the runner. */
class OsAppearanceTest {

    private static Function<List<String>, Optional<String>> answers(Map<String, String> byLastArg) {
        return cmd -> Optional.ofNullable(byLastArg.get(cmd.get(cmd.size() - 1)));
    }

    @Test
    void gnomeColorSchemePreferDarkIsDark() {
        OsAppearance a = new OsAppearance(OsFamily.LINUX, Map.of(), answers(Map.of("color-scheme", "'prefer-dark'\n")));
        assertThat(a.prefersDark()).contains(true);
    }

    @Test
    void gnomeDefaultSchemeFallsBackToThemeName() {
        OsAppearance a = new OsAppearance(OsFamily.LINUX, Map.of(),
                answers(Map.of("color-scheme", "'default'\n", "gtk-theme", "'Adwaita-dark'\n")));
        assertThat(a.prefersDark()).contains(true);
        OsAppearance light = new OsAppearance(OsFamily.LINUX, Map.of(),
                answers(Map.of("color-scheme", "'default'\n", "gtk-theme", "'Yaru'\n")));
        assertThat(light.prefersDark()).contains(false);
    }

    @Test
    void gtkThemeVariableWins() {
        OsAppearance a = new OsAppearance(OsFamily.LINUX, Map.of("GTK_THEME", "Adwaita:dark"),
                answers(Map.of("color-scheme", "'prefer-light'\n")));
        assertThat(a.prefersDark()).contains(true);
    }

    @Test
    void noDesktopMeansUnknown() {
        OsAppearance a = new OsAppearance(OsFamily.LINUX, Map.of(), answers(Map.of()));
        assertThat(a.prefersDark()).isEmpty();
    }

    @Test
    void windowsRegistryValue() {
        String dark = "\r\nHKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Themes\\Personalize\r\n"
                + "    AppsUseLightTheme    REG_DWORD    0x0\r\n\r\n";
        assertThat(new OsAppearance(OsFamily.WINDOWS, Map.of(), answers(Map.of("AppsUseLightTheme", dark)))
                .prefersDark()).contains(true);
        assertThat(new OsAppearance(OsFamily.WINDOWS, Map.of(),
                answers(Map.of("AppsUseLightTheme", dark.replace("0x0", "0x1")))).prefersDark()).contains(false);
    }

    @Test
    void macInterfaceStyle() {
        assertThat(new OsAppearance(OsFamily.MAC, Map.of(), answers(Map.of("AppleInterfaceStyle", "Dark\n")))
                .prefersDark()).contains(true);
        assertThat(new OsAppearance(OsFamily.MAC, Map.of(), answers(Map.of())).prefersDark()).contains(false);
    }
}
