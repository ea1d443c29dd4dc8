package io.gpuforge.host.ssh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How one host's key is checked, as OpenSSH checks it with the user's config: the files read (the config's
 * {@code UserKnownHostsFile} in place of the user's {@code ~/.ssh/known_hosts}, GPUForge's own file, the
 * system-wide files or the config's {@code GlobalKnownHostsFile}), the file a new key goes to, the name it is known
 * by ({@code HostKeyAlias}) and whether an unknown key may be asked about ({@code StrictHostKeyChecking}).
 *
 * @param read   every file checked, in order
 * @param write  where a newly accepted key is written
 * @param strict the config's StrictHostKeyChecking
 * @param alias  the config's HostKeyAlias, lowercased: the name the key is looked up and written under
 */
public record HostKeyTrust(List<Path> read, Path write, Strict strict, Optional<String> alias) {

    /** StrictHostKeyChecking: ask (the default: the caller's policy decides), yes (refuse), accept-new (accept). */
    enum Strict {
        ASK, YES, ACCEPT_NEW;

        /** OpenSSH's spellings; "no" and "off" accept new keys too (a changed key is refused all the same). */
        static Strict of(Optional<String> value) {
            String v = value.map(s -> s.strip().toLowerCase(Locale.ROOT)).orElse("ask");
            switch (v) {
                case "yes":
                case "true":
                    return YES;
                case "accept-new":
                case "no":
                case "off":
                case "false":
                    return ACCEPT_NEW;
                default:
                    return ASK;
            }
        }
    }

    /** What a host's config entry says about its key. Values as written in the config. */
    record Config(Optional<String> alias, Optional<String> userFiles, Optional<String> globalFiles,
                  Optional<String> strict) {
        static final Config NONE = new Config(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    public HostKeyTrust {
        read = List.copyOf(read);
    }

    /** The trust for {@code hop} under {@code setup}. */
    static HostKeyTrust of(SshSetup setup, SshTarget target, Config config) {
        Optional<String> alias = config.alias().map(String::strip).filter(a -> !a.isEmpty())
                .map(a -> a.toLowerCase(Locale.ROOT));
        List<Path> user = setup.userKnownHosts();
        List<Path> read = new ArrayList<>();
        Path write = setup.newHostKeys();
        Optional<List<Path>> configured = user.isEmpty() ? Optional.empty()
                : config.userFiles().map(v -> files(v, target, alias));
        for (Path f : setup.knownHosts()) {
            if (!(configured.isPresent() && user.contains(f))) {
                read.add(f);
            }
        }
        if (configured.isPresent()) {
            read.addAll(0, configured.get());
            if (user.contains(write)) {
                // new keys go where the config says the user's keys are; "none": nowhere of the user's
                write = configured.get().isEmpty() ? Path.of("/dev/null") : configured.get().get(0);
            }
        }
        List<Path> global = setup.globalKnownHosts().isEmpty() ? List.of()
                : config.globalFiles().map(v -> files(v, target, alias)).orElse(setup.globalKnownHosts());
        global.stream().filter(f -> !read.contains(f)).forEach(read::add);
        return new HostKeyTrust(read, write, Strict.of(config.strict()), alias);
    }

    /**
     * A list of files as the config writes it ({@code none}: no file), with ~ and OpenSSH's %-tokens expanded;
     * sshd hands several values joined by commas.
     */
    static List<Path> files(String value, SshTarget target, Optional<String> alias) {
        List<Path> out = new ArrayList<>();
        for (String w : Arrays.asList(value.strip().split("[\\s,]+"))) {
            String f = w.startsWith("\"") && w.endsWith("\"") && w.length() > 1 ? w.substring(1, w.length() - 1) : w;
            if (f.isEmpty() || "none".equalsIgnoreCase(f)) {
                continue;
            }
            out.add(Path.of(expand(f, target, alias)));
        }
        return out;
    }

    private static String expand(String f, SshTarget target, Optional<String> alias) {
        String home = System.getProperty("user.home");
        String s = f.equals("~") ? home : f.startsWith("~/") ? home + f.substring(1) : f;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%' || i + 1 >= s.length()) {
                b.append(c);
                continue;
            }
            char t = s.charAt(++i);
            switch (t) {
                case 'd': b.append(home); break;
                case 'u': b.append(System.getProperty("user.name", "")); break;
                case 'h': b.append(target.host()); break;
                case 'p': b.append(target.port()); break;
                case 'r': b.append(target.user()); break;
                case 'k': b.append(alias.orElse(target.host())); break;
                case '%': b.append('%'); break;
                default: b.append('%').append(t);
            }
        }
        return b.toString();
    }
}
