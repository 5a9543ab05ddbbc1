#!/bin/sh
# Bad usage across every command: an unknown option or one missing its
# value is one line naming it, then the command's usage, exit status 2
# (getopt's own message is not printed besides ours).
PPR=${PPR:-./ppr}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for c in bcsr compare conv dag measure predict report roofline sim sweep \
	"machine detect" "machine show" "trace convert" "trace info" "sweep merge"; do
	for opt in --bogus -Z; do
		# shellcheck disable=SC2086
		"$PPR" $c "$opt" > "$tmp/out" 2> "$tmp/err"; rc=$?
		first=$(head -n 1 "$tmp/err")
		[ $rc -eq 2 ] && ok || bad "$c $opt: exit $rc, not 2"
		case "$first" in
		"ppr: "*"'$opt'") ok ;;
		*) bad "$c $opt: first line '$first' does not name the option" ;;
		esac
		sed -n 2p "$tmp/err" | grep -q '^usage: ppr ' && ok ||
			bad "$c $opt: no usage after the message: $(sed -n 2p "$tmp/err")"
		[ -s "$tmp/out" ] && bad "$c $opt: wrote to stdout" || ok
	done
done
# an option that needs a value, given none, at the end
for c in "predict -m" "roofline -o" "report -o" "compare -s" "machine show -f" "trace info -f"; do
	# shellcheck disable=SC2086
	"$PPR" $c > /dev/null 2> "$tmp/err"; rc=$?
	[ $rc -eq 2 ] && head -n 1 "$tmp/err" | grep -q "^ppr: .*'-[a-z]'$" && ok ||
		bad "$c without its value: exit $rc: $(head -n 1 "$tmp/err")"
done
# a malformed generator spec as the MATRIX argument is bad usage too (2),
# in every command that takes one (matrix/README.md), before any work;
# one too large to index is an error of the input (1)
M=machines/zen4-epyc.json
for c in "predict -m $M -k spmv-csr" "bcsr -m $M" "measure -k spmv-csr" \
	"dag -m $M --kernel spmv-csr" "trace --kernel spmv-csr -o $tmp/x.trc" "matrix info"; do
	for g in gen:laplace2d:n=0 gen:fem3d:n=3,dof=0 gen:nosuch:n=3 gen:random:n=5,per_row=9 gen:laplace2d:n=3x; do
		# shellcheck disable=SC2086
		"$PPR" $c "$g" > /dev/null 2> "$tmp/err"; rc=$?
		[ $rc -eq 2 ] && head -n 1 "$tmp/err" | grep -q "^ppr: .*generator '" && ok ||
			bad "$c $g: exit $rc: $(head -n 1 "$tmp/err")"
	done
	# shellcheck disable=SC2086
	"$PPR" $c gen:laplace3d:n=100000 > /dev/null 2> "$tmp/err"; rc=$?
	[ $rc -eq 1 ] && grep -q "2^32 or more rows" "$tmp/err" && ok || bad "$c too large: exit $rc: $(head -n 1 "$tmp/err")"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
