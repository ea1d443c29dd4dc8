package io.gpuforge.hypervisor.libvirt;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** Small, safe DOM helpers for libvirt XML (no DTDs, no external entities). */
final class Xml {

    private Xml() {
    }

    static Element parse(String xml) throws LibvirtBackendException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            Document d = f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
            return d.getDocumentElement();
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new LibvirtBackendException("libvirt returned XML that cannot be read: " + e.getMessage(), e);
        }
    }

    static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nl = parent.getChildNodes();
        for (int i = 0; i < nl.getLength(); i++) {
            Node n = nl.item(i);
            if (n instanceof Element && ((Element) n).getTagName().equals(name)) {
                out.add((Element) n);
            }
        }
        return out;
    }

    static Optional<Element> child(Element parent, String name) {
        List<Element> c = children(parent, name);
        return c.isEmpty() ? Optional.empty() : Optional.of(c.get(0));
    }

    static Optional<String> text(Element parent, String name) {
        return child(parent, name).map(e -> e.getTextContent().strip()).filter(s -> !s.isEmpty());
    }

    static Optional<String> attr(Element e, String name) {
        String v = e.getAttribute(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    /** All descendants with a tag name, in document order. */
    static List<Element> all(Element root, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nl = root.getElementsByTagName(name);
        for (int i = 0; i < nl.getLength(); i++) {
            out.add((Element) nl.item(i));
        }
        return out;
    }

    static int number(String s) {
        String t = s.strip().toLowerCase(Locale.ROOT);
        return t.startsWith("0x") ? Integer.parseInt(t.substring(2), 16) : Integer.parseInt(t);
    }
}
