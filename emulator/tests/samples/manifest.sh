# Reading manifest.txt (sourced by run_samples.sh and run_samples_cmake.sh).
# manifest_entries: each sample line of manifest.txt, comments and blank lines left out.
# parse_entry LINE: sets name, dir, scope, what (success regex or reason) and args.
manifest_entries() {
  local raw
  while IFS= read -r raw || [ -n "$raw" ]; do
    case $raw in ''|'#'*) continue ;; esac
    printf '%s\n' "$raw"
  done <"$(dirname "${BASH_SOURCE[0]}")/manifest.txt"
}
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }
parse_entry() {
  local f_name f_dir f_scope f_what f_args
  IFS='|' read -r f_name f_dir f_scope f_what f_args <<<"$1"
  name=$(trim "$f_name"); dir=$(trim "$f_dir"); scope=$(trim "$f_scope")
  what=$(trim "$f_what"); args=$(trim "${f_args:-}")
}
