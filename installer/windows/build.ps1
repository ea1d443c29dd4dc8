# Builds GPUForge for Windows: a trimmed runtime (jlink, modules from jdeps), an app-image and an .msi.
# Run on Windows with a JDK 17+ (jpackage) and the WiX Toolset 3.x on the PATH (candle.exe, light.exe;
# jpackage 17 needs WiX 3, not 4), from the checkout, after `mvn -DskipTests package`:
#   powershell -ExecutionPolicy Bypass -File installer\windows\build.ps1 -Version 0.1.0
# The jar must be built on Windows (mvn picks the JavaFX artifacts of the OS it runs on: javafx.platform=win
# via -Djavafx.platform=win). Output in target\dist\. Not run in CI (Linux only); keep it in step with
# installer/linux/build.sh.
# The .msi: per-machine install under C:\Program Files\GPUForge, a Start-menu entry in the "GPUForge" group,
# a desktop shortcut, the second launcher gpuforge.exe (console) for the command line, upgrades in place
# (fixed upgrade UUID). AppCDS: the archive is made at the first start by nobody; on Windows run once after
# installing, as administrator:  "C:\Program Files\GPUForge\runtime\bin\java.exe" -Xshare:dump `
#   -XX:SharedClassListFile="C:\Program Files\GPUForge\app\gpuforge.classlist" `
#   -XX:SharedArchiveFile="C:\Program Files\GPUForge\app\gpuforge.jsa" -cp "C:\Program Files\GPUForge\app\gpuforge.jar"
# (without it GPUForge starts as usual, only slower).
param([Parameter(Mandatory = $true)][string]$Version)
$ErrorActionPreference = 'Stop'
Set-Location (Join-Path $PSScriptRoot '..\..')
$Version = $Version -replace '-SNAPSHOT$', ''
$jar = 'target\gpuforge.jar'
$out = 'target\dist'
if (-not (Test-Path $jar)) { throw "$jar is missing: build it first (mvn -DskipTests -Djavafx.platform=win package)" }
foreach ($t in 'jdeps', 'jlink', 'jpackage') {
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

$modules = (& jdeps --multi-release 17 --ignore-missing-deps --print-module-deps $jar).Trim()
$modules = "$modules,jdk.crypto.ec,jdk.localedata,jdk.charsets,jdk.zipfs,jdk.net,jdk.crypto.mscapi"
& jlink --add-modules $modules --include-locales=en,zh --strip-debug --no-header-files --no-man-pages `
    --compress=2 --output "$out\runtime"
if ($LASTEXITCODE -ne 0) { throw 'jlink failed' }

# class list for AppCDS from a start of the command line (the window's classes need a start to the first frame:
# run GPUForge once with -XX:DumpLoadedClassList and -Dgpuforge.exitAfterFirstFrame=true for a better list)
& "$out\runtime\bin\java.exe" "-XX:DumpLoadedClassList=$out\input\gpuforge.classlist" `
    "-Dgpuforge.home=$env:TEMP\gpuforge-classlist" -cp "$out\input\gpuforge.jar" io.gpuforge.boot.Launcher --version

$common = @('--app-version', $Version, '--vendor', 'GPUForge', '--copyright', 'GPUForge contributors',
            '--description', 'GPU passthrough, VMs and GPU telemetry for Proxmox VE and KVM/libvirt')
$javaOptions = @('--java-options', '-Dfile.encoding=UTF-8', '--java-options', '-Xshare:auto',
                 '--java-options', '-XX:SharedArchiveFile=$APPDIR\gpuforge.jsa',
                 '--java-options', '-Xlog:cds=off,cds+dynamic=off',
                 '--java-options', '-Dgpuforge.installConfig=$APPDIR\config',
                 '--java-options', '-Dlogback.configurationFile=$APPDIR\config\logback.xml')
& jpackage --type app-image --name GPUForge --dest $out --input "$out\input" --main-jar gpuforge.jar `
    --main-class io.gpuforge.boot.Launcher --runtime-image "$out\runtime" --icon installer\icons\gpuforge.ico `
    --add-launcher gpuforge=installer\linux\gpuforge-cli.properties @javaOptions @common
if ($LASTEXITCODE -ne 0) { throw 'jpackage app-image failed' }
& jpackage --type msi --name GPUForge --app-image "$out\GPUForge" --dest $out @common `
    --win-menu --win-menu-group GPUForge --win-shortcut --win-dir-chooser --win-per-user-install:$false `
    --win-upgrade-uuid 5b0f6a8e-3c1d-4e7a-9f2b-6d4c8a1e2f30
if ($LASTEXITCODE -ne 0) { throw 'jpackage msi failed' }
Get-ChildItem "$out\*.msi" | ForEach-Object { Write-Host "msi: $($_.FullName)" }
