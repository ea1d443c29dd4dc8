package io.gpuforge.hypervisor.libvirt;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Small, safe DOM helpers for libvirt XML (no DTDs, no external entities). A malformed value ({@code bus='0x4z'}, a
 * slot past 0x1f, a memory size past what a long holds) is a {@link Malformed} naming the element and the attribute,
 * which every parser of this package turns into its {@link LibvirtBackendException}; the XML parser reports through
 * its exception only, never on stderr.
 */
final class Xml {

    /** A value in libvirt XML that is not what libvirt writes there; the message names where it is. */
    static final class Malformed extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }

    private static final ErrorHandler QUIET = new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {
            // not an error: the document is read as it is
        }

        @Override
        public void error(SAXParseException e) throws SAXException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }
    };

    private Xml() {
    }

    static Element parse(String xml) throws LibvirtBackendException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            // the JDK's default handler prints "[Fatal Error] :3:21: …" on stderr besides throwing
            b.setErrorHandler(QUIET);
            Document d = b.parse(new InputSource(new StringReader(xml)));
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

    /** A number libvirt wrote in {@code e}'s {@code attribute}, decimal or {@code 0x} hex. */
    static int number(Element e, String attribute) {
        return number(e.getAttribute(attribute), "the " + attribute + " of <" + e.getTagName() + ">");
    }

    /** A number libvirt wrote, decimal or {@code 0x} hex; {@code where} names it in the error. */
    static int number(String s, String where) {
        String t = s.strip().toLowerCase(Locale.ROOT);
        try {
            return t.startsWith("0x") ? Integer.parseInt(t.substring(2), 16) : Integer.parseInt(t);
        } catch (NumberFormatException e) {
            throw new Malformed(where + " is not a number: '" + clip(s) + "'");
        }
    }

    /** A long libvirt wrote in decimal ({@code <memory>}); {@code where} names it in the error. */
    static long decimal(String s, String where) {
        try {
            long n = Long.parseLong(s.strip());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new Malformed(where + " is not a size libvirt writes: '" + clip(s) + "'");
        }
    }

    /** A value as an error message shows it: at most 40 characters. */
    static String clip(String s) {
        String t = s.strip();
        return t.length() > 40 ? t.substring(0, 40) + "…" : t;
    }
}
