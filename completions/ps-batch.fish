function __ps-batch_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-batch_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-batch_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-batch_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-batch_parse_tokens -S
    set -l unparsed_tokens (__ps-batch_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-batch'
        __ps-batch_parse_subcommand 1 'max-record-size=' 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'concurrency=' 'rate=' 'state=' 'conversation=' 'model=' 'template=' 'schema=' 'repair=' 'archive' 'no-archive' 'redact' 'allow-secrets' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __ps-batch_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-batch_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-batch_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __ps-batch_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-batch_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-batch_tokens -p)
    if test -z "$(__ps-batch_tokens -t)"
        set -l index (count (__ps-batch_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-batch' -f
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" max-record-size' -l 'max-record-size' -d 'The longest line, event or record held, in MiB. Default 64; also PS_MAX_RECORD_MIB.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-batch_custom_completion ---completion -- --profile (count (__ps-batch_tokens -pc)) (__ps-batch_tokens -tC))'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" concurrency' -l 'concurrency' -d 'How many jobs are in flight at once (default 1, at most 64).' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" rate' -l 'rate' -d 'The most sends, evenly spaced. N/s or N/m across all jobs in flight: 60/m is one a second.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" state' -l 'state' -d 'Keep each job\'s progress in this file. A rerun skips the jobs done and never sends an accepted message again.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" conversation' -l 'conversation' -d 'Send every job to this conversation, one at a time, in order. By default each job gets a new one.' -rfka '(__ps-batch_custom_completion ---completion -- --conversation (count (__ps-batch_tokens -pc)) (__ps-batch_tokens -tC))'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" model' -l 'model' -d 'The model for jobs that name none. Default: the profile\'s (ps-auth set-model).' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" template' -l 'template' -d 'Make the message from a template, its {{name}} placeholders filled. FILE, or NAME for $XDG_CONFIG_HOME/ps-tools/templates/NAME.md.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" schema' -l 'schema' -d 'Check the answer against a JSON Schema. FILE or inline JSON; the valid value is kept as JSON, one still invalid exits 3.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" repair' -l 'repair' -d 'With --schema: send an invalid answer back n times (default 1). Each time with what is wrong.' -rfka ''
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" archive' -l 'archive' -d 'Keep each exchange in the archive (ps-search --archive), or not. Default: "archive" in config.json, else not.'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" no-archive' -l 'no-archive' -d 'Keep each exchange in the archive (ps-search --archive), or not. Default: "archive" in config.json, else not.'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" redact' -l 'redact' -d 'Send with each secret found replaced. A secret becomes [REDACTED:kind].'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" allow-secrets' -l 'allow-secrets' -d 'Send secrets found as they are. By default a text holding one is refused.'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_positional "ps-batch" -eq 1' -F
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" version' -l 'version' -d 'Show the version.'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-batch' -n '__ps-batch_should_offer_completions_for_flags_or_options "ps-batch help" version' -l 'version' -d 'Show the version.'
