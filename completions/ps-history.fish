function __ps-history_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-history_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-history_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-history_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-history_parse_tokens -S
    set -l unparsed_tokens (__ps-history_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-history'
        __ps-history_parse_subcommand 0 'max-record-size=' 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'list' 'agent=' 'rename=' 'title=' 'delete=' 'conversation=' 'page=' 'all' 'every-conversation' 'limit=' 'cursor=' 'direction=' 'page-size=' 'max-page-bytes=' 'state=' 'lock-wait=' 'follow' 'since=' 'realtime-url=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __ps-history_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-history_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-history_parse_subcommand -S -a positional_count
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

function __ps-history_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-history_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-history_tokens -p)
    if test -z "$(__ps-history_tokens -t)"
        set -l index (count (__ps-history_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-history' -f
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" max-record-size' -l 'max-record-size' -d 'The longest line, event or record held, in MiB. Default 64; also PS_MAX_RECORD_MIB.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-history_custom_completion ---completion -- --profile (count (__ps-history_tokens -pc)) (__ps-history_tokens -tC))'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" list' -l 'list' -d 'List conversations instead of exporting messages.'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" agent' -l 'agent' -d 'With --list: list this Page AI agent\'s conversations.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" rename' -l 'rename' -d 'Give this conversation a new title (with --title).' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" title' -l 'title' -d 'The new title, with --rename.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" delete' -l 'delete' -d 'Delete this conversation.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" conversation' -l 'conversation' -d 'The conversation to export. Default: the current Global assistant conversation.' -rfka '(__ps-history_custom_completion ---completion -- --conversation (count (__ps-history_tokens -pc)) (__ps-history_tokens -tC))'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" page' -l 'page' -d 'Export a Page AI agent\'s history. With --conversation, that conversation.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" all' -l 'all' -d 'Export every message, walking all pages (the default).'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" every-conversation' -l 'every-conversation' -d 'Export every conversation the credential reaches (with --state: what is new in each).'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" limit' -l 'limit' -d 'One page of at most n messages (at most 200).' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" cursor' -l 'cursor' -d 'One page next to this message id.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" direction' -l 'direction' -d 'One page: messages before or after the cursor.' -rfka 'before after'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" page-size' -l 'page-size' -d 'Messages per request for a whole export (1-200).' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" max-page-bytes' -l 'max-page-bytes' -d 'The largest page accepted, in bytes. Default 268435456: a larger one stops the export (exit 8) before it fills the memory.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" state' -l 'state' -d 'Export only what is new since the last run. This file remembers where the export stopped.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" lock-wait' -l 'lock-wait' -d 'With --state: the wait for another run (default 120). The other run is one using the same file.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" follow' -l 'follow' -d 'After the export, follow the conversation live.'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" since' -l 'since' -d 'With --follow: where to start (now, or after this message), instead of writing the whole conversation first.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" realtime-url' -l 'realtime-url' -d 'With --follow: the realtime Socket.IO URL. Default: the server\'s /socket.io/.' -rfka ''
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" version' -l 'version' -d 'Show the version.'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-history' -n '__ps-history_should_offer_completions_for_flags_or_options "ps-history help" version' -l 'version' -d 'Show the version.'
