package io.gpuforge.app.desktop;

import io.gpuforge.bounded.ChildEnvironment;
import io.gpuforge.app.host.OsFamily;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * Opens a VM's console, the one way the window, the wizard and {@code gpuforge vm console} do it: for Proxmox VE (and
 * the Demo lab, at the simulator's own address) the cluster's noVNC console in the browser
 * ({@code https://host:8006/?console=kvm&novnc=1&vmid=…&node=…}, every value URL-encoded, https only, where the user
 * logs in as in the web UI), for libvirt {@code virt-viewer --connect URI --uuid -- UUID}: the domain by its UUID,
 * read from the VM's configuration, after {@code --}, so a domain named {@code 3} (an id) or {@code -x} (an option)
 * opens that VM and no other. Blocking for a moment (the configuration is read, the launcher starts); call off the
 * FX thread. A tool that is missing is an IOException that says what to install.
 */
public final class ConsoleLauncher {

    /** What opening a console runs: the command line, and for a browser console its URL. */
    public record Launch(List<String> command, Optional<URI> url) {
        public Launch {
            command = List.copyOf(command);
        }
    }

    /** A libvirt domain's UUID, as its configuration says (blocking). */
    @FunctionalInterface
    public interface Uuids {
        String of(ConnectionInfo c, VmRef vm) throws BackendException;
    }

    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}");
    private final OsFamily os;
    private final String browser;
    private final String virtViewer;
    private final Supplier<Optional<String>> demoUrl;
    private final Uuids uuids;
    private final ProgramStarter starter;

    /**
     * @param demoUrl the Demo lab's address while it runs
     * @param uuids   a libvirt domain's UUID ({@link #uuids(Sessions)})
     * @param starter starts virt-viewer or the browser ({@link io.gpuforge.app.AppExecutors#startProgram})
     */
    public ConsoleLauncher(OsFamily os, Supplier<Optional<String>> demoUrl, Uuids uuids, ProgramStarter starter) {
        this(os, defaultBrowser(os), "virt-viewer", demoUrl, uuids, starter);
    }

    /** With the browser opener and virt-viewer named (tests, or a user's own), started from the calling thread. */
    public ConsoleLauncher(OsFamily os, String browser, String virtViewer, Supplier<Optional<String>> demoUrl,
                           Uuids uuids) {
        this(os, browser, virtViewer, demoUrl, uuids, ProgramStarter.direct());
    }

    private ConsoleLauncher(OsFamily os, String browser, String virtViewer, Supplier<Optional<String>> demoUrl,
                            Uuids uuids, ProgramStarter starter) {
        this.os = os;
        this.browser = browser;
        this.virtViewer = virtViewer;
        this.demoUrl = demoUrl;
        this.uuids = uuids;
        this.starter = starter;
    }

    /** The UUID of a libvirt domain from its domain XML ({@code <uuid>}), read through the connection's session. */
    public static Uuids uuids(Sessions sessions) {
        return (c, vm) -> uuidOf(sessions.of(c).readConfig(vm).document(), vm);
    }

    /** The {@code <uuid>} of a domain XML; refused when there is none that looks like one. */
    static String uuidOf(String domainXml, VmRef vm) throws BackendException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            Element root = f.newDocumentBuilder().parse(new InputSource(new StringReader(domainXml)))
                    .getDocumentElement();
            for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element && ((Element) n).getTagName().equals("uuid")
                        && UUID.matcher(n.getTextContent().strip()).matches()) {
                    return n.getTextContent().strip().toLowerCase(Locale.ROOT);
                }
            }
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new BackendException(BackendException.Kind.PROTOCOL, "The domain XML of " + vm.id()
                    + " cannot be read: " + e.getMessage(), e);
        }
        throw new BackendException(BackendException.Kind.PROTOCOL, "The domain XML of " + vm.id() + " has no <uuid>");
    }

    private static String defaultBrowser(OsFamily os) {
        switch (os) {
            case WINDOWS:
                return "rundll32";
            case MAC:
                return "open";
            default:
                return "xdg-open";
        }
    }

    /** The noVNC console URL of a VM on a Proxmox VE cluster reached at {@code clusterUrl}. Pure. */
    public static URI noVncUrl(String clusterUrl, VmRef vm, String vmName) {
        try {
            URI base = new URI(clusterUrl.strip());
            if (base.getHost() == null || !"https".equalsIgnoreCase(base.getScheme())) {
                throw new IllegalArgumentException("Not a Proxmox VE address: '" + clusterUrl + "' (https://host:8006)");
            }
            int port = base.getPort() < 0 ? 8006 : base.getPort();
            String host = base.getHost().contains(":") && !base.getHost().startsWith("[") ? "[" + base.getHost() + "]"
                    : base.getHost();
            return new URI("https://" + host + ":" + port + "/?console=kvm&novnc=1&vmid=" + enc(vm.id()) + "&vmname="
                    + enc(vmName) + "&node=" + enc(vm.node()) + "&resize=off&cmd=");
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Not a Proxmox VE address: '" + clusterUrl + "'", e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** What {@link #open} runs for this VM; blocking for a libvirt domain (its UUID is read). */
    public Launch plan(ConnectionInfo c, VmRef vm, String vmName) throws BackendException {
        switch (c.kind()) {
            case PROXMOX:
                return browse(noVncUrl(c.address(), vm, vmName));
            case DEMO:
                return browse(noVncUrl(demoUrl.get().orElseThrow(() -> new IllegalStateException(
                        "The Demo lab is not running")), vm, vmName));
            case LIBVIRT:
                return new Launch(List.of(virtViewer, "--connect", c.address(), "--uuid", "--", uuids.of(c, vm)),
                        Optional.empty());
            default:
                throw new IllegalArgumentException(c.name() + " is an SSH host: it has no VM consoles");
        }
    }

    private Launch browse(URI url) {
        List<String> cmd = os == OsFamily.WINDOWS ? List.of(browser, "url.dll,FileProtocolHandler", url.toString())
                : List.of(browser, url.toString());
        return new Launch(cmd, Optional.of(url));
    }

    /** Starts the console; returns what was started. */
    public Launch open(ConnectionInfo c, VmRef vm, String vmName) throws IOException, BackendException {
        Launch l = plan(c, vm, vmName);
        Process p;
        try {
            p = starter.start(ChildEnvironment.scrubbed(new ProcessBuilder(l.command())).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        } catch (IOException e) {
            String tool = l.command().get(0);
            throw new IOException(tool + " could not be started (" + e.getMessage() + ")" + (tool.equals(virtViewer)
                    ? ": install virt-viewer (apt-get install virt-viewer)" : ": no web browser opener was found"), e);
        }
        try {
            // virt-viewer keeps running with its window; an opener returns at once, non-zero when nobody could open it
            if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() != 0 && os != OsFamily.WINDOWS) {
                throw new IOException(l.command().get(0) + " exited with " + p.exitValue()
                        + l.url().map(u -> "; open " + u + " in a browser yourself").orElse(""));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return l;
    }
}
