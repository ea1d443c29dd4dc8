package io.gpuforge.app.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.diagnose.VmFix;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.passthrough.UnifiedDiff;
import io.gpuforge.domain.vm.VmConfig;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * The domain XML a cause's fix writes on a libvirt VM: the emulated display off, the balloon off, KVM hidden. The
 * change is the whole new document (libvirt defines a domain whole), the undo the document as read; the diff compares
 * both written the same way, so only the change shows. Causes whose VM change GPUForge does not make on libvirt are
 * said so, with the snippet to add by hand.
 */
final class DomainVmFixes {

    private DomainVmFixes() {
    }

    static VmFix of(String cause, VmConfig c, Optional<String> byHand) throws BackendException {
        Document d = parse(c);
        String before = write(d);
        List<Message> notDone = new ArrayList<>();
        Element devices = child(d.getDocumentElement(), "devices");
        switch (cause) {
            case "vga-slot-conflict" -> {
                for (Element video : children(devices, "video")) {
                    Element model = child(video, "model");
                    if (!"none".equals(model.getAttribute("type"))) {
                        while (video.hasChildNodes()) {
                            video.removeChild(video.getFirstChild());
                        }
                        Element none = d.createElement("model");
                        none.setAttribute("type", "none");
                        video.appendChild(none);
                    }
                }
            }
            case "dma-map-failed" -> {
                Element balloon = child(devices, "memballoon");
                if (!"none".equals(balloon.getAttribute("model"))) {
                    while (balloon.hasChildNodes()) {
                        balloon.removeChild(balloon.getFirstChild());
                    }
                    balloon.setAttribute("model", "none");
                }
                notDone.add(Message.of("fix.hugepages.libvirt"));
            }
            case "hypervisor-visible-to-driver" -> {
                Element hidden = child(child(child(d.getDocumentElement(), "features"), "kvm"), "hidden");
                hidden.setAttribute("state", "on");
                notDone.add(Message.of("fix.driver465"));
            }
            default -> notDone.add(Message.of("fix.libvirtByHand", c.ref().id(), byHand.<Object>map(b -> b)
                    .orElse(Message.of("fix.seeAbove"))));
        }
        String after = write(d);
        if (after.equals(before)) {
            return new VmFix(cause, c.ref(), c.version(), Optional.empty(), Optional.empty(), "", notDone);
        }
        return new VmFix(cause, c.ref(), c.version(), Optional.of(new ConfigChange.Document(after)),
                Optional.of(new ConfigChange.Document(c.document())),
                UnifiedDiff.of("/etc/libvirt/qemu/" + c.ref().id() + ".xml", before, after), notDone);
    }

    /** The first child element named {@code name}, made (last) when there is none. */
    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        if (!found.isEmpty()) {
            return found.get(0);
        }
        Element e = parent.getOwnerDocument().createElement(name);
        parent.appendChild(e);
        return e;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ((Element) n).getTagName().equals(name)) {
                out.add((Element) n);
            }
        }
        return out;
    }

    private static Document parse(VmConfig c) throws BackendException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            var b = f.newDocumentBuilder();
            b.setErrorHandler(new org.xml.sax.helpers.DefaultHandler());
            return b.parse(new InputSource(new StringReader(c.document())));
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new BackendException(BackendException.Kind.PROTOCOL, "The domain XML of " + c.ref().id()
                    + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static String write(Document d) throws BackendException {
        try {
            var t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            StringWriter out = new StringWriter();
            t.transform(new DOMSource(d), new StreamResult(out));
            String s = out.toString();
            return s.endsWith("\n") ? s : s + "\n";
        } catch (TransformerException e) {
            throw new BackendException(BackendException.Kind.PROTOCOL, "The domain XML cannot be written: "
                    + e.getMessage(), e);
        }
    }
}
