package io.gpuforge.hypervisor.libvirt;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.xml.XMLConstants;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Element;

/** A domain XML edited as DOM written back as text, and the version of a configuration (a hash of its XML). */
final class DomainXmlText {

    private DomainXmlText() {
    }

    static String write(Element root) throws LibvirtBackendException {
        try {
            TransformerFactory f = TransformerFactory.newInstance();
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
            Transformer t = f.newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            StringWriter out = new StringWriter();
            t.transform(new DOMSource(root), new StreamResult(out));
            return out.toString();
        } catch (TransformerException e) {
            throw new LibvirtBackendException("the changed domain XML could not be written: " + e.getMessage(), e);
        }
    }

    /** SHA-256 of the inactive domain XML as libvirt gives it: any change to the configuration changes it. */
    static String version(String inactiveXml) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(inactiveXml.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
