import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Draws GPUForge's application icon (a graphics card with two fans and a spark, on a blue rounded square) in every
 * size the platforms want, with no tool beyond the JDK:
 * <pre>java installer/icons/MakeIcons.java</pre>
 * writes src/main/resources/icons/gpuforge-{16..512}.png (window icons, the welcome page, the Linux packages),
 * installer/icons/gpuforge.png (512, jpackage on Linux), gpuforge.ico (Windows: 16..256, PNG-compressed entries)
 * and gpuforge.icns (macOS: 16..1024, PNG entries). The files are committed; run it again after changing the drawing.
 */
public final class MakeIcons {

    static final int[] PNG_SIZES = {16, 24, 32, 48, 64, 128, 256, 512};

    public static void main(String[] args) throws IOException {
        Path res = Path.of("src/main/resources/icons");
        Path inst = Path.of("installer/icons");
        Files.createDirectories(res);
        Files.createDirectories(inst);
        for (int s : PNG_SIZES) {
            ImageIO.write(draw(s), "png", res.resolve("gpuforge-" + s + ".png").toFile());
        }
        ImageIO.write(draw(512), "png", inst.resolve("gpuforge.png").toFile());
        Map<Integer, byte[]> ico = new LinkedHashMap<>();
        for (int s : new int[] {16, 24, 32, 48, 64, 128, 256}) {
            ico.put(s, png(draw(s)));
        }
        Files.write(inst.resolve("gpuforge.ico"), ico(ico));
        Map<String, byte[]> icns = new LinkedHashMap<>();
        icns.put("icp4", png(draw(16)));
        icns.put("icp5", png(draw(32)));
        icns.put("icp6", png(draw(64)));
        icns.put("ic07", png(draw(128)));
        icns.put("ic08", png(draw(256)));
        icns.put("ic09", png(draw(512)));
        icns.put("ic10", png(draw(1024)));
        Files.write(inst.resolve("gpuforge.icns"), icns(icns));
    }

    static BufferedImage draw(int size) {
        BufferedImage img = new BufferedImage(size, size, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        double u = size / 64.0;
        g.setPaint(new GradientPaint(0, 0, new Color(0x1f6feb), size, size, new Color(0x0b3d91)));
        g.fill(new RoundRectangle2D.Double(1 * u, 1 * u, 62 * u, 62 * u, 14 * u, 14 * u));
        // the card
        g.setColor(new Color(0xf0f6fc));
        g.fill(new RoundRectangle2D.Double(8 * u, 20 * u, 48 * u, 26 * u, 5 * u, 5 * u));
        g.fill(new RoundRectangle2D.Double(14 * u, 46 * u, 22 * u, 5 * u, 1.5 * u, 1.5 * u));
        // two fans
        g.setColor(new Color(0x0b3d91));
        for (double cx : new double[] {22, 42}) {
            g.fill(new Ellipse2D.Double((cx - 9) * u, 24 * u, 18 * u, 18 * u));
        }
        if (size >= 32) {
            g.setColor(new Color(0xf0f6fc));
            g.setStroke(new BasicStroke((float) (1.6 * u)));
            for (double cx : new double[] {22, 42}) {
                g.draw(new Ellipse2D.Double((cx - 4) * u, 29 * u, 8 * u, 8 * u));
            }
        }
        // the spark of the forge
        Path2D spark = new Path2D.Double();
        spark.moveTo(40 * u, 3 * u);
        spark.lineTo(30 * u, 17 * u);
        spark.lineTo(36 * u, 17 * u);
        spark.lineTo(31 * u, 28 * u);
        spark.lineTo(45 * u, 12 * u);
        spark.lineTo(38.5 * u, 12 * u);
        spark.closePath();
        g.setColor(new Color(0xffa657));
        g.fill(spark);
        g.dispose();
        return img;
    }

    static byte[] png(BufferedImage img) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        return out.toByteArray();
    }

    /** ICO with PNG-compressed images (Windows Vista and later). */
    static byte[] ico(Map<Integer, byte[]> images) {
        int n = images.size();
        int offset = 6 + 16 * n;
        int total = offset + images.values().stream().mapToInt(b -> b.length).sum();
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0).putShort((short) 1).putShort((short) n);
        for (Map.Entry<Integer, byte[]> e : images.entrySet()) {
            int s = e.getKey();
            b.put((byte) (s >= 256 ? 0 : s)).put((byte) (s >= 256 ? 0 : s)).put((byte) 0).put((byte) 0);
            b.putShort((short) 1).putShort((short) 32).putInt(e.getValue().length).putInt(offset);
            offset += e.getValue().length;
        }
        images.values().forEach(b::put);
        return b.array();
    }

    /** ICNS with PNG entries (macOS 10.7 and later). */
    static byte[] icns(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(body);
        for (Map.Entry<String, byte[]> e : entries.entrySet()) {
            d.writeBytes(e.getKey());
            d.writeInt(8 + e.getValue().length);
            d.write(e.getValue());
        }
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        DataOutputStream h = new DataOutputStream(all);
        h.writeBytes("icns");
        h.writeInt(8 + body.size());
        h.write(body.toByteArray());
        return all.toByteArray();
    }
}
