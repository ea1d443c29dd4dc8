package io.gpuforge.host.apply;

import static io.gpuforge.host.RemoteFiles.q;

import io.gpuforge.host.RemoteFiles;

import java.time.Duration;
import java.util.List;

/**
 * The host side of a detached commit: POSIX sh scripts, each run after {@link RemoteFiles}'s prelude (so {@code $R}
 * is the root prefix and {@code target} follows symbolic links, never leaving a sysroot). {@link #commit} is written
 * to {@code /var/lib/gpuforge/commit-<id>.sh} and started by {@link #launcher} detached from the session (its own
 * session with {@code setsid} where the host has it, SIGHUP ignored, stdin from /dev/null, output to its log), so a
 * cut connection cannot stop it. It renames the staged files over their targets, runs the refresh commands in
 * order (each stopped at its time limit), and writes one line per event to its status file, ending with
 * {@code APPLIED}; after a failed step it restores the backups, re-runs the commands that had run, and ends with
 * {@code RESTORED} or {@code RESTORE-FAILED <why>}; a command past its limit ends it with {@code STOPPED <cmd>}.
 * Every path and command is single-quoted; the journal they come from was checked by {@link JournalPolicy}.
 */
public final class CommitScript {

    private CommitScript() {
    }

    static String script(String id) {
        return JournalPolicy.commitFile(id, ".sh");
    }

    static String status(String id) {
        return JournalPolicy.commitFile(id, ".status");
    }

    static String log(String id) {
        return JournalPolicy.commitFile(id, ".log");
    }

    /** The variables every script of the commit {@code id} shares, and whether its script is still running. */
    private static String common(String id) {
        return String.join("\n",
                "ST=\"$R\"" + q(status(id)),
                "LG=\"$R\"" + q(log(id)),
                "alive() {",
                "  pid=\"$(sed -n 's/^pid //p' \"$ST\" 2>/dev/null | head -n 1)\"",
                "  [ -n \"$pid\" ] && kill -0 \"$pid\" 2>/dev/null || return 1",
                "  [ -r \"/proc/$pid/cmdline\" ] || return 0",
                "  tr '\\000' ' ' < \"/proc/$pid/cmdline\" | grep -qF " + q("commit-" + id + ".sh"),
                "}",
                "finished() { grep -Eq '^(APPLIED|RESTORED|RESTORE-FAILED|STOPPED)( |$)' \"$ST\" 2>/dev/null; }",
                "");
    }

    /**
     * The commit itself. {@code files}: target paths (as the plan names them) with whether each existed; {@code
     * commands}: the refresh commands to run (none on a sysroot).
     */
    static String commit(Journal j, List<String> commands, Duration limit) {
        StringBuilder b = new StringBuilder("#!/bin/sh\n# GPUForge: the commit of the apply " + j.id
                + " (started detached; see its .status and .log beside it)\n");
        b.append(RemoteFiles.PRELUDE).append(common(j.id));
        b.append("set +e\ntrap '' HUP INT PIPE\n");
        b.append("RC=\"$R\"").append(q(JournalPolicy.commitFile(j.id, ".rc"))).append('\n');
        b.append("BK=\"$R\"").append(q(j.backupDir + "/files")).append('\n');
        b.append("LIMIT=").append(Math.max(1, limit.toSeconds())).append('\n');
        for (int i = 0; i < j.files.size(); i++) {
            Journal.FileEntry f = j.files.get(i);
            b.append('F').append(i).append('=').append(q(f.path)).append("; E").append(i).append('=')
                    .append(f.existed ? 1 : 0).append('\n');
        }
        b.append("NF=").append(j.files.size()).append('\n');
        for (int i = 0; i < commands.size(); i++) {
            b.append('C').append(i).append('=').append(q(commands.get(i))).append('\n');
        }
        b.append("NC=").append(commands.size()).append('\n');
        b.append(BODY);
        return b.toString();
    }

    private static final String BODY = String.join("\n",
            "printf 'pid %s\\n' \"$$\" >> \"$ST\"",
            "event() { printf '@@ %s\\n' \"$*\" >> \"$LG\"; printf '%s\\n' \"$*\" >> \"$ST\"; }",
            "now() { date +%s 2>/dev/null || awk 'BEGIN { srand(); print srand() }'; }",
            "nap() { sleep 0.2 2>/dev/null || sleep 1; }",
            "endline() { [ -z \"$(tail -c 1 \"$LG\" 2>/dev/null)\" ] || echo >> \"$LG\"; }",
            // every process below $1 (and $1): a command stopped at its limit is stopped with all it started
            "family() {",
            "  found=\" $1 \"; grew=1",
            "  while [ \"$grew\" = 1 ]; do",
            "    grew=0",
            "    for s in /proc/[0-9]*/stat; do",
            "      read -r l < \"$s\" 2>/dev/null || continue",
            "      p=\"${s#/proc/}\"; p=\"${p%/stat}\"",
            "      case \"$found\" in *\" $p \"*) continue ;; esac",
            "      set -- ${l##*\") \"}",
            "      case \"$found\" in *\" $2 \"*) found=\"$found$p \"; grew=1 ;; esac",
            "    done",
            "  done",
            "  echo $found",
            "}",
            // whether process $1 has ended (gone, or a zombie not yet waited for)
            "ended() {",
            "  [ -r \"/proc/$1/stat\" ] || return 0",
            "  read -r l < \"/proc/$1/stat\" 2>/dev/null || return 0",
            "  set -- ${l##*\") \"}",
            "  [ \"$1\" = Z ]",
            "}",
            // runs $1 with its output in the log; rc is its exit status, or 'timeout' when stopped at the limit. The
            // status comes from wait, so a status file that cannot be written (a full disk) still ends the wait.
            "run() {",
            "  rm -f -- \"$RC\"",
            "  { sh -c \"$1\" < /dev/null; s=$?; echo \"$s\" > \"$RC\"; exit \"$s\"; } >> \"$LG\" 2>&1 &",
            "  w=$!; t0=\"$(now)\"",
            "  while [ ! -s \"$RC\" ] && ! ended \"$w\"; do",
            "    if [ $(( $(now) - t0 )) -ge \"$LIMIT\" ]; then",
            "      for p in $(family \"$w\"); do kill -KILL \"$p\" 2>/dev/null; done",
            "      wait \"$w\" 2>/dev/null; rc=timeout; endline; return",
            "    fi",
            "    nap",
            "  done",
            "  wait \"$w\" 2>/dev/null; rc=$?; endline",
            "}",
            "rename_file() {",
            "  f=\"$(target \"$R$1\")\" || return 1",
            "  [ -f \"$f" + RemoteFiles.STAGED + "\" ] || { echo \"the staged copy of $1 is missing\" >> \"$LG\"; return 1; }",
            "  mv -f -- \"$f" + RemoteFiles.STAGED + "\" \"$f\"",
            "}",
            "restore_file() {",
            "  f=\"$(target \"$R$1\")\" || return 1",
            "  if [ \"$2\" = 1 ]; then",
            "    cp -p -- \"$BK$1\" \"$f.gpuforge-tmp\" && { sync -- \"$f.gpuforge-tmp\" 2>/dev/null || sync; }"
                    + " && mv -f -- \"$f.gpuforge-tmp\" \"$f\"",
            "  else rm -f -- \"$f\"; fi",
            "}",
            "cleanup() {",
            "  i=0",
            "  while [ $i -lt \"$NF\" ]; do",
            "    eval \"p=\\\"\\$F$i\\\"\"",
            "    f=\"$(target \"$R$p\")\" && rm -f -- \"$f" + RemoteFiles.STAGED + "\" \"$f.gpuforge-tmp\"",
            "    i=$((i + 1))",
            "  done",
            "  rm -f -- \"$RC\"",
            "}",
            "fail=; nren=0; ncmd=0; i=0",
            "while [ $i -lt \"$NF\" ]; do",
            "  eval \"p=\\\"\\$F$i\\\"\"",
            "  if rename_file \"$p\"; then event \"renamed $p\"; nren=$((i + 1)); else fail=\"renaming $p failed\"; break; fi",
            "  i=$((i + 1))",
            "done",
            "sync 2>/dev/null",
            "i=0",
            "while [ -z \"$fail\" ] && [ $i -lt \"$NC\" ]; do",
            "  eval \"c=\\\"\\$C$i\\\"\"",
            "  event \"started $c\"; ncmd=$((i + 1))",
            "  run \"$c\"",
            "  if [ \"$rc\" = timeout ]; then event \"timeout $c\"; cleanup; event \"STOPPED $c\"; exit 0; fi",
            "  event \"exit $c $rc\"",
            "  [ \"$rc\" = 0 ] || fail=\"$c exited $rc\"",
            "  i=$((i + 1))",
            "done",
            "if [ -z \"$fail\" ]; then cleanup; event APPLIED; exit 0; fi",
            "event \"failed $fail\"",
            "bad=; i=0",
            "while [ $i -lt \"$nren\" ]; do",
            "  eval \"p=\\\"\\$F$i\\\"; e=\\\"\\$E$i\\\"\"",
            "  if restore_file \"$p\" \"$e\"; then event \"restored $p\"; else event \"restore-failed $p\";"
                    + " bad=\"$bad; $p could not be restored\"; fi",
            "  i=$((i + 1))",
            "done",
            "i=0",
            "if [ -n \"$bad\" ] && [ \"$ncmd\" -gt 0 ]; then bad=\"$bad; the refresh commands were not re-run, as not"
                    + " every file is back\"; ncmd=0; fi",
            "while [ $i -lt \"$ncmd\" ]; do",
            "  eval \"c=\\\"\\$C$i\\\"\"",
            "  event \"rerun $c\"; run \"$c\"; event \"rerun-exit $c $rc\"",
            "  if [ \"$rc\" = timeout ]; then bad=\"$bad; re-running $c did not finish within $LIMIT s\"; break; fi",
            "  [ \"$rc\" = 0 ] || bad=\"$bad; re-running $c exited $rc\"",
            "  i=$((i + 1))",
            "done",
            "cleanup",
            "if [ -z \"$bad\" ]; then event RESTORED; else event \"RESTORE-FAILED ${bad#; }\"; fi",
            "");

    /**
     * Starts the commit detached and prints {@code started PID} once it runs; prints {@code missing TOOL} instead
     * when a refresh command is not on the host's PATH (a host that runs them some other way: the Demo lab's
     * simulated hosts). Refuses to start a commit twice (its
     * status file exists): the status file is created here, before the script starts, so "no status file" means
     * the commit never started.
     */
    /** How many ended commits keep their script, status and log (for a look after the fact) beside the new one. */
    static final int KEPT = 5;

    /**
     * Removes the files of ended commits but the newest {@link #KEPT}: every apply leaves three, and nothing else
     * ever removed them. A commit without its end in its status file is left alone (the journal is the judge of it).
     */
    private static final String PRUNE = String.join("\n",
            "( cd \"$R" + JournalPolicy.STATE_DIR + "\" 2>/dev/null && ls -t -- commit-*.status 2>/dev/null"
                    + " | grep -v -x -F -- \"${ST##*/}\" | tail -n +" + (KEPT + 1) + " | while read -r old; do",
            "    grep -q -x -E 'APPLIED|RESTORED|RESTORE-FAILED.*|STOPPED .*' -- \"$old\" || continue",
            "    rm -f -- \"${old%.status}.sh\" \"${old%.status}.log\" \"$old\"",
            "  done ) || true");

    static String launcher(String id, List<String> commands) {
        StringBuilder tools = new StringBuilder();
        for (String c : commands) {
            String w = c.split(" ", 2)[0];
            tools.append("command -v ").append(q(w)).append(" >/dev/null 2>&1 || { echo ").append(q("missing " + w))
                    .append("; exit 0; }\n");
        }
        return common(id) + tools + String.join("\n",
                "S=\"$R\"" + q(script(id)),
                "[ -f \"$S\" ] || fail \"the commit script ${S#\"$R\"} is missing\"",
                "[ ! -e \"$ST\" ] || fail \"the commit " + id + " was started before (${ST#\"$R\"} exists)\"",
                "printf 'launch\\n' > \"$ST\"",
                PRUNE,
                "trap '' HUP",
                "if command -v setsid >/dev/null 2>&1; then",
                "  setsid sh \"$S\" \"$R\" < /dev/null >> \"$LG\" 2>&1 &",
                "else",
                "  sh \"$S\" \"$R\" < /dev/null >> \"$LG\" 2>&1 &",
                "fi",
                "n=0",
                "while ! grep -q '^pid ' \"$ST\" && [ $n -lt 100 ]; do sleep 0.1 2>/dev/null || sleep 1; n=$((n + 1)); done",
                "sed -n 's/^pid /started /p' \"$ST\"",
                "");
    }

    /**
     * Follows a running commit: prints its log as it grows (events as {@code @@ EVENT}, the commands' output as
     * is) until it ends ({@code @@@ END}) or its process is gone without an end ({@code @@@ DIED}), then its status
     * file, each line as {@code S LINE}.
     */
    static String follower(String id) {
        return common(id) + String.join("\n",
                "seen=0",
                "while :; do",
                "  fin=; finished && fin=1",
                "  live=1",
                "  if [ -z \"$fin\" ] && ! alive; then live=; finished && fin=1; fi",
                "  n=0; [ -f \"$LG\" ] && n=$(($(wc -l < \"$LG\")))",
                "  if [ \"$n\" -gt \"$seen\" ]; then tail -n \"+$((seen + 1))\" \"$LG\" | head -n \"$((n - seen))\"; seen=$n; fi",
                "  if [ -n \"$fin\" ]; then echo '@@@ END'; break; fi",
                "  if [ -z \"$live\" ]; then echo '@@@ DIED'; break; fi",
                "  sleep 0.2 2>/dev/null || sleep 1",
                "done",
                "sed 's/^/S /' \"$ST\" 2>/dev/null",
                "");
    }

    /** Where the commit stands, in one look: NONE (never started), or ALIVE / GONE and its status lines. */
    static String probe(String id) {
        return common(id) + String.join("\n",
                "[ -e \"$ST\" ] || { echo NONE; exit 0; }",
                "if alive; then echo ALIVE; else echo GONE; fi",
                "sed 's/^/S /' \"$ST\"",
                "");
    }
}
