# Builds GPUForge for Windows: a trimmed runtime (jlink, modules from jdeps), an app-image and an .msi.
# Run on Windows with a JDK 17+ (jpackage) and the WiX Toolset 3.x on the PATH (candle.exe, light.exe;
# jpackage 17 needs WiX 3, not 4), from the checkout, after `mvn -DskipTests package`:
#   powershell -ExecutionPolicy Bypass -File installer\windows\build.ps1 -Version 0.1.0 [-Cds]
# The jar must be built on Windows (mvn picks the JavaFX artifacts of the OS it runs on: javafx.platform=win
# via -Djavafx.platform=win). Output in target\dist\. Not run in CI (Linux only); keep it in step with
# installer/linux/build.sh.
# The .msi: per-machine install under C:\Program Files\GPUForge, a Start-menu entry in the "GPUForge" group,
# a desktop shortcut, the second launcher gpuforge.exe (console) for the command line, upgrades in place
# (fixed upgrade UUID).
# Start-up (as installer/linux/build.sh): JavaFX's native libraries (.dll) lie beside the jar in app\, where JavaFX
# looks first (from inside the jar they are copied to %USERPROFILE%\.openjfx\cache and checksummed at every start);
# the launcher's JVM options are the Linux ones. AppCDS: an archive is valid only for the class path it was made
# with, so it is made at the installed path. The class list it is made from: with -Cds (needs a desktop session:
# GPUForge runs once to its full window and closes; not possible in CI) from a start to the full window, else from
# the command line's start only. After installing, once, as administrator:
#   "C:\Program Files\GPUForge\runtime\bin\java.exe" -Xshare:dump `
#   -XX:SharedClassListFile="C:\Program Files\GPUForge\app\gpuforge.classlist" `
#   -XX:SharedArchiveFile="C:\Program Files\GPUForge\app\gpuforge.jsa" -cp "C:\Program Files\GPUForge\app\gpuforge.jar"
# (without it GPUForge starts as usual, only slower).
param([Parameter(Mandatory = $true)][string]$Version, [switch]$Cds)
$ErrorActionPreference = 'Stop'
Set-Location (Join-Path $PSScriptRoot '..\..')
$Version = $Version -replace '-SNAPSHOT$', ''
$jar = 'target\gpuforge.jar'
$out = 'target\dist'
if (-not (Test-Path $jar)) { throw "$jar is missing: build it first (mvn -DskipTests -Djavafx.platform=win package)" }
foreach ($t in 'jar', 'jdeps', 'jlink', 'jpackage') {
    if (-not (Get-Command $t -ErrorAction SilentlyContinue)) { throw "$t is missing: it comes with a full JDK 17+" }
}
if (-not (Get-Command candle.exe -ErrorAction SilentlyContinue)) {
    throw 'WiX Toolset 3 is missing (candle.exe, light.exe): https://wixtoolset.org, then open a new shell'
}
if (Test-Path $out) { Remove-Item -Recurse -Force $out }
New-Item -ItemType Directory -Force "$out\input\config" | Out-Null
Copy-Item $jar "$out\input\gpuforge.jar"
Copy-Item config\defaults.json, config\site.json, config\logback.xml, config\README.md "$out\input\config\"
Copy-Item -Recurse config\templates "$out\input\config\"
Copy-Item -Recurse config\grafana "$out\input\config\"
$jarPath = (Resolve-Path $jar).Path
$natives = @(& jar tf $jarPath | Where-Object { $_ -match '^[^/]+\.dll$' })
if ($LASTEXITCODE -ne 0 -or $natives.Count -eq 0) {
    throw "no JavaFX native libraries (.dll) at the top of ${jar}: build the jar on Windows (-Djavafx.platform=win)"
}
Push-Location "$out\input"
try { & jar xf $jarPath @natives } finally { Pop-Location }
if ($LASTEXITCODE -ne 0) { throw 'jar xf (the JavaFX native libraries) failed' }

$modules = (& jdeps --multi-release 17 --ignore-missing-deps --print-module-deps $jar).Trim()
$modules = "$modules,jdk.crypto.ec,jdk.localedata,jdk.charsets,jdk.zipfs,jdk.net,jdk.crypto.mscapi"
& jlink --add-modules $modules --include-locales=en,zh --strip-debug --no-header-files --no-man-pages `
    --compress=2 --output "$out\runtime"
if ($LASTEXITCODE -ne 0) { throw 'jlink failed' }

# the class list for AppCDS: with -Cds from a start to the full window (GPUForge opens, draws its window and
# closes by itself: -Dgpuforge.exitAfterFirstFrame), else from a start of the command line
$inputDir = (Resolve-Path "$out\input").Path
$classList = @("-XX:DumpLoadedClassList=$inputDir\gpuforge.classlist", "-Dgpuforge.home=$env:TEMP\gpuforge-classlist",
               '-Dfile.encoding=UTF-8', "-Dgpuforge.installConfig=$inputDir\config",
               "-Dlogback.configurationFile=$inputDir\config\logback.xml", '-cp', "$inputDir\gpuforge.jar")
if ($Cds) {
    & "$out\runtime\bin\java.exe" @classList '-Dgpuforge.exitAfterFirstFrame=true' io.gpuforge.boot.Launcher
    if ($LASTEXITCODE -ne 0) { throw 'GPUForge did not start to its window for the class list (-Cds needs a desktop)' }
} else {
    & "$out\runtime\bin\java.exe" @classList io.gpuforge.boot.Launcher --version
}
Write-Host "class list: $((Get-Content "$inputDir\gpuforge.classlist").Count) classes"

$common = @('--app-version', $Version, '--vendor', 'GPUForge', '--copyright', 'GPUForge contributors',
            '--description', 'GPU passthrough, VMs and GPU telemetry for Proxmox VE and KVM/libvirt')
$javaOptions = @('--java-options', '-XX:TieredStopAtLevel=1', '--java-options', '-Dfile.encoding=UTF-8', '--java-options', '-Xshare:auto',
                 '--java-options', '-XX:SharedArchiveFile=$APPDIR\gpuforge.jsa',
                 '--java-options', '-Xlog:cds=off,cds+dynamic=off',
                 '--java-options', '-Dgpuforge.installConfig=$APPDIR\config',
                 '--java-options', '-Dlogback.configurationFile=$APPDIR\config\logback.xml')
# the collector: Shenandoah (compact), whose pauses stay under a millisecond where G1's young collections (6-26 ms)
# held up frames of the monitor (docs/performance.md, "Step 4"); both launchers share it here (the command starts
# some 30 ms slower with it). Only where this runtime has it (Temurin does; Oracle's builds do not)
& "$out\runtime\bin\java.exe" -XX:+UseShenandoahGC -XX:ShenandoahGCHeuristics=compact -version 2>&1 | Out-Null
if ($LASTEXITCODE -eq 0) {
    $javaOptions += @('--java-options', '-XX:+UseShenandoahGC', '--java-options', '-XX:ShenandoahGCHeuristics=compact')
} else {
    Write-Host 'this JDK has no Shenandoah collector: the window runs with G1 (frames may wait on its pauses)'
}
& jpackage --type app-image --name GPUForge --dest $out --input "$out\input" --main-jar gpuforge.jar `
    --main-class io.gpuforge.boot.Launcher --runtime-image "$out\runtime" --icon installer\icons\gpuforge.ico `
    --add-launcher gpuforge=installer\linux\gpuforge-cli.properties @javaOptions @common
if ($LASTEXITCODE -ne 0) { throw 'jpackage app-image failed' }
& jpackage --type msi --name GPUForge --app-image "$out\GPUForge" --dest $out @common `
    --win-menu --win-menu-group GPUForge --win-shortcut --win-dir-chooser --win-per-user-install:$false `
    --win-upgrade-uuid 5b0f6a8e-3c1d-4e7a-9f2b-6d4c8a1e2f30
if ($LASTEXITCODE -ne 0) { throw 'jpackage msi failed' }
Get-ChildItem "$out\*.msi" | ForEach-Object { Write-Host "msi: $($_.FullName)" }
