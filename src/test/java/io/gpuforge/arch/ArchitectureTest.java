package io.gpuforge.arch;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layer rules of {@code docs/architecture.md} (its "Layers and allowed dependencies" and "Features"
 * sections), enforced: change that document and this test together.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.gpuforge");
    }

    @Test
    void domainAndPassthroughArePureLogic() {
        noClasses().that().resideInAnyPackage("io.gpuforge.domain..", "io.gpuforge.passthrough..",
                        "io.gpuforge.diagnose..", "io.gpuforge.share..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "okhttp3..", "org.libvirt..",
                        "java.sql..", "org.sqlite..", "com.sun.jna..", "org.apache.sshd..", "com.fasterxml..")
                .allowEmptyShould(true)
                .check(classes);
    }

    /** The diagnosis engine reads text it is given: no files, no network, no processes, nothing of the app. */
    @Test
    void theDiagnosisRulesDoNoIo() {
        noClasses().that().resideInAPackage("io.gpuforge.diagnose..")
                .should().dependOnClassesThat().resideInAnyPackage("java.io..", "java.nio.file..", "java.nio.channels..",
                        "java.net..", "io.gpuforge.app..", "io.gpuforge.host..", "io.gpuforge.hypervisor..",
                        "io.gpuforge.store..", "io.gpuforge.telemetry..", "io.gpuforge.demo..")
                .orShould().callMethod(ProcessBuilder.class, "start")
                .check(classes);
    }

    @Test
    void domainDependsOnNothingOfOurs() {
        noClasses().that().resideInAPackage("io.gpuforge.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("io.gpuforge.app..", "io.gpuforge.ui..",
                        "io.gpuforge.cli..", "io.gpuforge.host..", "io.gpuforge.store..", "io.gpuforge.hypervisor..",
                        "io.gpuforge.telemetry..", "io.gpuforge.app.settings..", "io.gpuforge.demo..")
                .check(classes);
    }

    @Test
    void uiUsesNoBackendInternals() {
        noClasses().that().resideInAPackage("io.gpuforge.ui..")
                .should().dependOnClassesThat().resideInAnyPackage("io.gpuforge.host..", "io.gpuforge.store..",
                        "io.gpuforge.hypervisor..", "io.gpuforge.telemetry..", "io.gpuforge.cli..",
                        "okhttp3..", "org.libvirt..", "java.sql..", "org.apache.sshd..")
                .check(classes);
    }

    @Test
    void backendsDoNotKnowTheUi() {
        noClasses().that().resideInAnyPackage("io.gpuforge.host..", "io.gpuforge.store..", "io.gpuforge.hypervisor..",
                        "io.gpuforge.telemetry..", "io.gpuforge.app.settings..", "io.gpuforge.cli..", "io.gpuforge.domain..")
                .should().dependOnClassesThat().resideInAnyPackage("io.gpuforge.ui..", "javafx..")
                .check(classes);
    }

    @Test
    void onlyTheCliOutputWriterPrints() {
        noClasses().that().doNotHaveFullyQualifiedName("io.gpuforge.cli.common.CliOutput")
                .should().accessField(System.class, "out")
                .orShould().accessField(System.class, "err")
                .check(classes);
        noClasses().should().callMethod(Throwable.class, "printStackTrace").check(classes);
    }

    /** SLF4J only; boot.JavaFxLogging alone touches java.util.logging, to hand JavaFX's own messages to SLF4J. */
    @Test
    void noJavaUtilLoggingOrOtherLoggers() {
        noClasses().that().doNotHaveFullyQualifiedName("io.gpuforge.boot.JavaFxLogging")
                .and().doNotHaveFullyQualifiedName("io.gpuforge.boot.JavaFxLogging$Forward")
                .should().dependOnClassesThat().resideInAnyPackage("java.util.logging..", "org.apache.log4j..",
                "org.apache.logging.log4j..", "org.apache.commons.logging..").check(classes);
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.apache.log4j..", "org.apache.logging.log4j..",
                "org.apache.commons.logging..").check(classes);
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("io.gpuforge.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void boundedReadsUseTheJdkOnly() {
        classes().that().resideInAPackage("io.gpuforge.bounded..")
                .should().onlyDependOnClassesThat(resideInAnyPackage("io.gpuforge.bounded..", "java..", "javax.."))
                .check(classes);
    }

    @Test
    void theWindowAndTheCliGoThroughTheAppServicesAndDomainValuesOnly() {
        // An allow-list: a package added later (a new backend, a new engine) is outside it until app/ wraps it.
        // bounded/ is a JDK-only helper (reads with limits), as a library would be
        classes().that().resideInAPackage("io.gpuforge.ui..")
                .should().onlyDependOnClassesThat(resideInAnyPackage("io.gpuforge.ui..", "io.gpuforge.app..",
                        "io.gpuforge.domain..", "io.gpuforge.bounded..").or(resideOutsideOfPackage("io.gpuforge..")))
                .check(classes);
        classes().that().resideInAPackage("io.gpuforge.cli..")
                .should().onlyDependOnClassesThat(resideInAnyPackage("io.gpuforge.cli..", "io.gpuforge.app..",
                        "io.gpuforge.domain..", "io.gpuforge.bounded..").or(resideOutsideOfPackage("io.gpuforge..")))
                .check(classes);
    }

    @Test
    void theAppLayerDoesNotKnowItsEntryPointsOrItsViews() {
        noClasses().that().resideInAnyPackage("io.gpuforge.app..", "io.gpuforge.domain..", "io.gpuforge.passthrough..",
                        "io.gpuforge.diagnose..", "io.gpuforge.share..", "io.gpuforge.host..", "io.gpuforge.hypervisor..", "io.gpuforge.store..", "io.gpuforge.demo..",
                        "io.gpuforge.telemetry..")
                .should().dependOnClassesThat().resideInAnyPackage("io.gpuforge.ui..", "io.gpuforge.cli..",
                        "io.gpuforge.boot..")
                .check(classes);
    }

    /** app/ is one package per feature; they may use one another, but never in a circle. */
    @Test
    void theAppFeaturesAreFreeOfCycles() {
        slices().matching("io.gpuforge.app.(*)..").should().beFreeOfCycles().check(classes);
    }

    /**
     * A CLI feature (cli/gpu, cli/vm…) uses the shared options in cli/common, app/ and domain/, never another
     * feature: the root (GpuForgeCli, RootCommand) alone knows them all.
     */
    @Test
    void cliFeaturesDoNotUseEachOther() {
        slices().matching("io.gpuforge.cli.(*)..").should().notDependOnEachOther()
                .ignoreDependency(alwaysTrue(), resideInAPackage("io.gpuforge.cli.common.."))
                .check(classes);
    }

    /**
     * A window feature uses ui/common, app/ and domain/; ui/shell composes them all. The few edges between
     * features are written down here and in docs/architecture.md: the IOMMU view is shown by the node, host and
     * passthrough pages, and the cluster tree opens the share windows (a container's migration plan, the container
     * wizard). Any other window of another feature opens through ui/common/WindowLinks, which the shell links.
     */
    @Test
    void windowFeaturesUseEachOtherOnlyWhereWrittenDown() {
        slices().matching("io.gpuforge.ui.(*)..").should().notDependOnEachOther()
                .ignoreDependency(resideInAPackage("io.gpuforge.ui.shell.."), alwaysTrue())
                .ignoreDependency(alwaysTrue(), resideInAPackage("io.gpuforge.ui.common.."))
                .ignoreDependency(resideInAnyPackage("io.gpuforge.ui.cluster..", "io.gpuforge.ui.host..",
                        "io.gpuforge.ui.passthrough.."), resideInAPackage("io.gpuforge.ui.iommu.."))
                .ignoreDependency(resideInAPackage("io.gpuforge.ui.cluster.."),
                        resideInAPackage("io.gpuforge.ui.share.."))
                .check(classes);
    }

    /**
     * A window feature's views get a record of the services they need (PassthroughServices, MonitorServices…),
     * built by the shell, the composition root; only ui/shell reaches the whole application through
     * UiContext.app(): a view that did would be a service locator by another name (decision 0001, issue 62).
     */
    @Test
    void onlyTheShellReachesTheWholeApplication() {
        noClasses().that().resideInAPackage("io.gpuforge.ui..").and().resideOutsideOfPackage("io.gpuforge.ui.shell..")
                .should().callMethod(io.gpuforge.ui.common.UiContext.class, "app")
                .because("a window feature is given its services by the shell")
                .check(classes);
    }

    /**
     * host/ by concern: the root holds the shells, the remote files, the probe's answer stream and the I/O errors;
     * ssh, probe, listing, snapshot and apply use it and never each other, but a snapshot, which takes a probe
     * (issue 62).
     */
    @Test
    void theHostsPartsUseTheRootNotEachOther() {
        slices().matching("io.gpuforge.host.(*)..").should().notDependOnEachOther()
                .ignoreDependency(resideInAPackage("io.gpuforge.host.snapshot.."),
                        resideInAPackage("io.gpuforge.host.probe.."))
                .check(classes);
        noClasses().that().resideInAPackage("io.gpuforge.host").should().dependOnClassesThat()
                .resideInAPackage("io.gpuforge.host.*..").because("the root is what the parts share")
                .check(classes);
    }
}
