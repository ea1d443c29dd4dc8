package io.gpuforge.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.host.OsFamily;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RenderingPipelineTest {

    @TempDir
    Path dev;

    @Test
    void withoutAnyGraphicsDeviceTheSoftwarePipelineIsAskedForAtOnce() {
        assertThat(RenderingPipeline.order(OsFamily.LINUX, null, dev)).contains("sw");
        assertThat(RenderingPipeline.order(OsFamily.LINUX, "  ", dev)).contains("sw");
    }

    @Test
    void anEmptyDriDirectoryIsNoDeviceEither() throws Exception {
        Files.createDirectory(dev.resolve("dri"));
        assertThat(RenderingPipeline.order(OsFamily.LINUX, null, dev)).contains("sw");
    }

    @Test
    void aDrmNodeOrAnNvidiaDeviceLetsJavaFxTryOpenGl() throws Exception {
        Files.createDirectories(dev.resolve("dri"));
        Files.createFile(dev.resolve("dri/renderD128"));
        assertThat(RenderingPipeline.order(OsFamily.LINUX, null, dev)).isEmpty();

        Path other = Files.createDirectory(dev.resolve("other"));
        Files.createFile(other.resolve("nvidiactl"));
        assertThat(RenderingPipeline.order(OsFamily.LINUX, null, other)).isEmpty();
    }

    @Test
    void theUsersOwnOrderAndOtherSystemsAreLeftAlone() {
        assertThat(RenderingPipeline.order(OsFamily.LINUX, "es2,sw", dev)).isEmpty();
        assertThat(RenderingPipeline.order(OsFamily.WINDOWS, null, dev)).isEmpty();
        assertThat(RenderingPipeline.order(OsFamily.MAC, null, dev)).isEmpty();
    }

    @Test
    void theLogSaysWhetherGtkWasKeptFromLoadingOpenGl() {
        assertThat(RenderingPipeline.describe("sw", "disable")).contains("prism.order=sw")
                .contains("GTK without OpenGL (GDK_GL=disable)");
        assertThat(RenderingPipeline.describe("sw", null)).contains("GTK loads OpenGL")
                .doesNotContain("GTK without OpenGL");
        assertThat(RenderingPipeline.describe("sw", "always")).contains("GTK loads OpenGL");
    }
}
