package io.gpuforge.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.forward.ForwardingFilter;
import org.apache.sshd.server.forward.RejectAllForwardingFilter;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.server.session.ServerSession;

/**
 * A real SSH server (sshd-core) on 127.0.0.1 acting as a host whose {@code /} is a sysroot tree (see
 * {@link TreeHost}): the scripts GPUForge sends read and write that tree, and the host's commands are the
 * tree's executables. Password "secret" for any user, public keys once {@link #authorize authorized}; counts exec
 * channels so tests can see "one round trip", and records who logged in how ({@link #logins}). As a jump host
 * ({@link #acceptForwarding}) it forwards TCP connections (ProxyJump) and records where to.
 */
public final class SysrootSshServer implements AutoCloseable {

    public static final String PASSWORD = "secret";
    private final SshServer server;
    private final TreeHost tree;
    private final AtomicInteger execs = new AtomicInteger();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private final List<PublicKey> userKeys = new CopyOnWriteArrayList<>();
    private final List<String> logins = new CopyOnWriteArrayList<>();
    private final List<String> forwarded = new CopyOnWriteArrayList<>();
    private static final AttributeRepository.AttributeKey<String> METHOD = new AttributeRepository.AttributeKey<>();
    private volatile boolean passwords = true;

    public SysrootSshServer(Path sysroot, Path hostKey) throws IOException {
        this(sysroot, hostKey, null);
    }

    /** Also accepts public-key login with {@code userKey} (when not null). */
    public SysrootSshServer(Path sysroot, Path hostKey, PublicKey userKey) throws IOException {
        tree = new TreeHost(sysroot);
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(hostKey));
        server.setPasswordAuthenticator((user, password, session) -> accepted(session, "password",
                passwords && PASSWORD.equals(password)));
        if (userKey != null) {
            userKeys.add(userKey);
        }
        server.setPublickeyAuthenticator((user, key, session) -> accepted(session, "publickey",
                userKeys.stream().anyMatch(k -> KeyUtils.compareKeys(key, k))));
        server.addSessionListener(new SessionListener() {
            @Override
            public void sessionEvent(Session session, Event event) {
                if (event == Event.Authenticated) {
                    logins.add(session.getUsername() + " " + session.getAttribute(METHOD));
                }
            }
        });
        server.setForwardingFilter(RejectAllForwardingFilter.INSTANCE);
        server.setCommandFactory((channel, command) -> {
            execs.incrementAndGet();
            return new ShellCommand(tree.command(command), tree.environment(environment));
        });
        server.start();
    }

    /** Notes the method that was accepted (a public key is asked about twice: offered, then signed). */
    private static boolean accepted(ServerSession session, String method, boolean ok) {
        if (ok) {
            session.setAttribute(METHOD, method);
        }
        return ok;
    }

    /** Also accepts public-key login with {@code key}. */
    public SysrootSshServer authorize(PublicKey key) {
        userKeys.add(key);
        return this;
    }

    /** Refuses every password from now on (keys only). */
    public SysrootSshServer refusePasswords() {
        passwords = false;
        return this;
    }

    /** Lets clients open TCP connections through this host (a jump host for ProxyJump). */
    public SysrootSshServer acceptForwarding() {
        server.setForwardingFilter(new ForwardingFilter() {
            @Override
            public boolean canForwardAgent(Session session, String requestType) {
                return false;
            }

            @Override
            public boolean canForwardX11(Session session, String requestType) {
                return false;
            }

            @Override
            public boolean canListen(SshdSocketAddress address, Session session) {
                return false;
            }

            @Override
            public boolean canConnect(Type type, SshdSocketAddress address, Session session) {
                forwarded.add(address.getHostName() + ":" + address.getPort());
                return type == Type.Direct;
            }
        });
        return this;
    }

    /** Who logged in, in order: {@code "USER METHOD"} (publickey or password). */
    public List<String> logins() {
        return List.copyOf(logins);
    }

    /** Where clients asked this host to connect them ({@code host:port}), in order. */
    public List<String> forwarded() {
        return List.copyOf(forwarded);
    }

    /** The host key, as a line of an OpenSSH known_hosts file names it ({@code [127.0.0.1]:PORT TYPE BASE64}). */
    public String knownHostsLine() throws IOException {
        try {
            PublicKey key = server.getKeyPairProvider().loadKeys(null).iterator().next().getPublic();
            return "[127.0.0.1]:" + port() + " " + PublicKeyEntry.toString(key);
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    /**
     * Cuts every connection at once, as a network failure or a host going down would: the client is told nothing,
     * its commands on this host are killed.
     */
    public void dropSessions() {
        server.getActiveSessions().forEach(s -> s.close(true));
    }

    /** A variable every command on this host finds in its environment (as a login shell's profile would set). */
    public SysrootSshServer environment(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** The host this server stands for (to replace one of its tools). */
    public TreeHost tree() {
        return tree;
    }

    public int port() {
        return server.getPort();
    }

    public int execChannels() {
        return execs.get();
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
        tree.close();
    }

    /**
     * A host whose {@code /} is a directory tree, as honest as a test can make one without a container. GPUForge
     * runs its scripts as {@code sh -s} with the script on stdin; this host answers like a machine whose root is
     * the tree: it passes the tree as the script's root argument ({@code sh -s -- TREE}, the same way GPUForge
     * itself runs a script on a {@code --sysroot}), and its commands are found on a PATH that holds the tree's
     * {@code usr/sbin}, {@code usr/bin}, {@code sbin}, {@code bin} and a few basic tools of this machine (no
     * {@code update-grub}, {@code sudo} or other tool that could change this machine). Nothing comes from the
     * environment of the test run.
     */
    public static final class TreeHost implements AutoCloseable {

        private static final List<String> BASIC_TOOLS = List.of("sh", "dash", "bash", "busybox", "base64", "stat",
                "chmod", "chown", "mv", "cp", "rm", "mkdir", "dirname", "basename", "readlink", "sync", "cat", "id",
                "ls", "awk", "grep", "sed", "uname", "head", "tail", "tr", "wc", "sleep", "touch", "ln", "printf",
                "echo", "test", "true", "false", "env", "sort", "cmp", "lspci", "mktemp");
        private static final Pattern SCRIPT = Pattern.compile("\\b(busybox sh|bash --posix|dash|bash|sh) -s\\b(?! --)");
        private final Path root;
        private final Path tools;

        public TreeHost(Path root) throws IOException {
            this.root = root.toAbsolutePath();
            this.tools = Files.createTempDirectory("gpuforge-tree-host-tools-");
            for (String name : BASIC_TOOLS) {
                realTool(name);
            }
        }

        public Path root() {
            return root;
        }

        /**
         * Replaces one of the host's basic tools with a script (a chown that fails, a sync that reports an error);
         * the script finds the real tool next to it as {@code NAME.real}.
         */
        public TreeHost tool(String name, String script) throws IOException {
            Path p = tools.resolve(name);
            Path real = tools.resolve(name + ".real");
            if (Files.isSymbolicLink(p) && !Files.exists(real, LinkOption.NOFOLLOW_LINKS)) {
                Files.move(p, real);
            }
            Files.deleteIfExists(p);
            Files.writeString(p, script, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
            return this;
        }

        /** Puts back one of the host's basic tools that {@link #tool} replaced. */
        public TreeHost realTool(String name) throws IOException {
            Files.deleteIfExists(tools.resolve(name));
            Files.deleteIfExists(tools.resolve(name + ".real"));
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
                File f = new File(dir, name);
                if (f.canExecute() && f.isFile()) {
                    Files.createSymbolicLink(tools.resolve(name), f.toPath().toAbsolutePath());
                    break;
                }
            }
            return this;
        }

        /** The PATH of this host. */
        public String path() {
            return String.join(File.pathSeparator, root.resolve("usr/sbin").toString(), root.resolve("usr/bin").toString(),
                    root.resolve("sbin").toString(), root.resolve("bin").toString(), tools.toString());
        }

        /** What this host runs for a command line it receives: each {@code sh -s} gets the tree as its root. */
        public String command(String received) {
            return SCRIPT.matcher(received).replaceAll(m -> Matcher.quoteReplacement(m.group() + " -- "
                    + quote(root.toString())));
        }

        /** The same as a command line for {@code /bin/sh -c} on this machine, PATH included. */
        public String shellCommand(String received) {
            return "PATH=" + quote(path()) + "; export PATH; " + command(received);
        }

        /** The environment of a command on this host: its PATH and a home, plus {@code extra}. */
        Map<String, String> environment(Map<String, String> extra) {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("PATH", path());
            env.put("HOME", root.toString());
            env.put("LC_ALL", "C");
            env.putAll(extra);
            return env;
        }

        private static String quote(String s) {
            return "'" + s.replace("'", "'\\''") + "'";
        }

        @Override
        public void close() throws IOException {
            try (var s = Files.list(tools)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    Files.delete(p);
                }
            }
            Files.delete(tools);
        }
    }

    private static final class ShellCommand implements Command {
        private final String command;
        private final Map<String, String> environment;
        private InputStream in;
        private OutputStream out;
        private OutputStream err;
        private ExitCallback exit;
        private Process process;

        ShellCommand(String command, Map<String, String> environment) {
            this.command = command;
            this.environment = environment;
        }

        @Override
        public void setInputStream(InputStream in) {
            this.in = in;
        }

        @Override
        public void setOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void setErrorStream(OutputStream err) {
            this.err = err;
        }

        @Override
        public void setExitCallback(ExitCallback callback) {
            this.exit = callback;
        }

        @Override
        public void start(ChannelSession channel, Environment env) throws IOException {
            ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", command);
            pb.environment().clear();
            pb.environment().putAll(environment);
            process = pb.start();
            Thread pumpIn = new Thread(() -> {
                try (OutputStream p = process.getOutputStream()) {
                    in.transferTo(p);
                } catch (IOException ignored) {
                    // the command ended before reading all input
                }
            }, "ssh-test-stdin");
            pumpIn.setDaemon(true);
            pumpIn.start();
            Thread waiter = new Thread(() -> {
                try {
                    Thread errPump = new Thread(() -> copy(process.getErrorStream(), err));
                    errPump.start();
                    copy(process.getInputStream(), out);
                    errPump.join();
                    exit.onExit(process.waitFor());
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }, "ssh-test-command");
            waiter.setDaemon(true);
            waiter.start();
        }

        private static void copy(InputStream from, OutputStream to) {
            try (from) {
                byte[] buf = new byte[8192];
                int n;
                while ((n = from.read(buf)) > 0) {
                    to.write(buf, 0, n);
                    to.flush();
                }
            } catch (IOException ignored) {
                // channel closed
            }
        }

        @Override
        public void destroy(ChannelSession channel) {
            if (process != null) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
    }
}
