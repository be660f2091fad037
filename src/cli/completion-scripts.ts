/**
 * The scripts `ds-doctor completion <shell>` prints. Each one is a thin adapter: it passes the
 * words of the command line to `ds-doctor __complete` (src/cli/complete.ts) and hands the
 * candidates to the shell; the `:<directive>` last line says whether file names may be offered
 * instead (cobra's ShellCompDirectiveNoFileComp, bit 4).
 */

const BASH = `# bash completion for ds-doctor: source <(ds-doctor completion bash)
_ds_doctor() {
  # Rejoin the "--flag" "=" "value" pieces that bash splits on COMP_WORDBREAKS.
  local -a words=()
  local i w joined=0
  for ((i = 1; i <= COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [[ $w == "=" && \${#words[@]} -gt 0 ]]; then
      words[\${#words[@]}-1]+="="; joined=1
    elif ((joined)); then
      words[\${#words[@]}-1]+="$w"; joined=0
    else
      words+=("$w")
    fi
  done
  local cur="\${words[\${#words[@]}-1]}"
  local out directive line
  out=$("\${COMP_WORDS[0]}" __complete "\${words[@]}" 2>/dev/null) || return
  directive=\${out##*:}
  out=\${out%:*}
  COMPREPLY=()
  while IFS= read -r line; do
    [[ -z $line ]] && continue
    line=\${line%%$'\\t'*}
    # bash replaces only the text after the last "=": offer that part.
    [[ $cur == *=* ]] && line=\${line#"\${cur%"\${cur##*=}"}"}
    COMPREPLY+=("$line")
  done <<<"$out"
  if ((\${#COMPREPLY[@]} == 0 && (directive & 4) == 0)); then
    compopt -o default 2>/dev/null
  else
    compopt +o default 2>/dev/null
  fi
  return 0
}
complete -o default -F _ds_doctor ds-doctor kubectl-ds_doctor
`;

const ZSH = `#compdef ds-doctor kubectl-ds_doctor
# zsh completion for ds-doctor: ds-doctor completion zsh > "\${fpath[1]}/_ds-doctor"
_ds-doctor() {
  local out directive c v d
  local -a lines described
  out=$(\${words[1]} __complete "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  lines=("\${(@f)out}")
  directive=\${lines[-1]#:}
  for c in "\${(@)lines[1,-2]}"; do
    [[ -z $c ]] && continue
    v=\${c%%$'\\t'*}
    d=""
    [[ $c == *$'\\t'* ]] && d=\${c#*$'\\t'}
    described+=("\${v//:/\\\\:}\${d:+:$d}")
  done
  if (( \${#described} )); then
    _describe -t values 'ds-doctor' described
  elif (( (directive & 4) == 0 )); then
    _files
  fi
}
if [ "$funcstack[1]" = "_ds-doctor" ]; then
  _ds-doctor "$@"
else
  compdef _ds-doctor ds-doctor kubectl-ds_doctor
fi
`;

const FISH = `# fish completion for ds-doctor: ds-doctor completion fish > ~/.config/fish/completions/ds-doctor.fish
function __ds_doctor_complete
    set -l args (commandline -opc)
    set -l program $args[1]
    set -e args[1]
    set -l cur (commandline -ct)
    set -l out (command $program __complete $args $cur 2>/dev/null)
    or return
    set -l directive (string replace -r '^:' '' -- $out[-1])
    set -e out[-1]
    set -l shown 0
    for c in $out
        if test -n "$c"
            printf '%s\\n' $c
            set shown 1
        end
    end
    if test $shown -eq 0 -a (math "bitand($directive, 4)") -eq 0
        __fish_complete_path $cur
    end
end
complete -c ds-doctor -f -a '(__ds_doctor_complete)'
complete -c kubectl-ds_doctor -f -a '(__ds_doctor_complete)'
`;

const POWERSHELL = `# PowerShell completion for ds-doctor: ds-doctor completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName 'ds-doctor', 'kubectl-ds_doctor' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | Where-Object { $_.Extent.StartOffset -lt $cursorPosition } | ForEach-Object { $_.ToString() })
    $program = $words[0]
    $rest = @()
    if ($words.Count -gt 1) { $rest = @($words[1..($words.Count - 1)]) }
    if ($wordToComplete -eq '') {
        # Before PowerShell 7.3 an empty argument is dropped on its way to a native command.
        if ($PSVersionTable.PSVersion -lt [version]'7.3') { $rest += '""' } else { $rest += '' }
    }
    $out = @(& $program __complete @rest 2>$null)
    if ($out.Count -eq 0) { return }
    $directive = [int]($out[-1].TrimStart(':'))
    $values = @($out | Select-Object -SkipLast 1 | Where-Object { $_ })
    if ($values.Count -eq 0 -and ($directive -band 4) -eq 0) { return }
    foreach ($line in $values) {
        $value, $description = $line -split "\`t", 2
        if (-not $description) { $description = $value }
        [System.Management.Automation.CompletionResult]::new($value, $value, 'ParameterValue', $description)
    }
}
`;

const SCRIPTS: Record<string, string> = { bash: BASH, zsh: ZSH, fish: FISH, powershell: POWERSHELL };

/** The completion script for a shell that `completion <shell>` accepts. */
export function completionScript(shell: string): string {
  const script = SCRIPTS[shell];
  if (script === undefined) throw new Error(`no completion script for ${shell}`);
  return script;
}
