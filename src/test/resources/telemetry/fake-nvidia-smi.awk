# A stand-in for nvidia-smi --query-gpu: answers from a capture that nvidia-smi printed with --format=csv (a header
# line with units, then one line per GPU). A field the capture does not have is refused the way nvidia-smi refuses a
# field its driver does not know; index is the line number when the capture lacks it.
BEGIN { FS = ", " }
NR == 1 {
    for (i = 1; i <= NF; i++) { n = $i; sub(/ \[[^]]*\]$/, "", n); col[n] = i }
    nq = split(q, want, ",")
    for (j = 1; j <= nq; j++) {
        if (!(want[j] in col) && want[j] != "index") { printf "Field \"%s\" is not a valid field to query.\n\n", want[j]; bad = 1; exit 2 }
    }
    if (fmt !~ /noheader/) { line = ""; for (j = 1; j <= nq; j++) line = line (j > 1 ? ", " : "") want[j]; print line }
    next
}
{
    line = ""
    for (j = 1; j <= nq; j++) {
        v = (want[j] in col) ? $(col[want[j]]) : NR - 2
        if (fmt ~ /nounits/) sub(/ (W|%|MiB|MHz|us|C)$/, "", v)
        line = line (j > 1 ? ", " : "") v
    }
    print line
}
END { if (bad) exit 2 }
