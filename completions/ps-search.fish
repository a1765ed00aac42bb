function __ps-search_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-search_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-search_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-search_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-search_parse_tokens -S
    set -l unparsed_tokens (__ps-search_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-search'
        __ps-search_parse_subcommand 1 'max-record-size=' 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'in=' 'limit=' 'json' 'archive' 'db=' 'source=' 'conversation=' 'role=' 'since=' 'until=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __ps-search_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-search_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-search_parse_subcommand -S -a positional_count
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

function __ps-search_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-search_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-search_tokens -p)
    if test -z "$(__ps-search_tokens -t)"
        set -l index (count (__ps-search_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-search' -f
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" max-record-size' -l 'max-record-size' -d 'The longest line, event or record held, in MiB. Default 64; also PS_MAX_RECORD_MIB.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-search_custom_completion ---completion -- --profile (count (__ps-search_tokens -pc)) (__ps-search_tokens -tC))'
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" in' -l 'in' -d 'Search this file of message records offline instead of the server (\'-\': standard input).' -rF
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" limit' -l 'limit' -d 'At most this many server results, 1 to 50 (the server\'s default: 20).' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" json' -l 'json' -d 'Write NDJSON records even on a terminal.'
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" archive' -l 'archive' -d 'Search the archive (ps-archive\'s). It is the default when no server, profile or file is named and it exists.'
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" db' -l 'db' -d 'The archive file (implies --archive; default: $XDG_DATA_HOME/ps-tools/archive.sqlite).' -rF
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" source' -l 'source' -d 'Only archived messages from this source.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" conversation' -l 'conversation' -d 'Only archived messages of this conversation.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" role' -l 'role' -d 'Only archived messages with this role: user, assistant or system.' -rfka 'user assistant system'
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" since' -l 'since' -d 'Only archived messages created at or after this time, e.g. 2025-11-01.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" until' -l 'until' -d 'Only archived messages created before this time.' -rfka ''
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" version' -l 'version' -d 'Show the version.'
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-search' -n '__ps-search_should_offer_completions_for_flags_or_options "ps-search help" version' -l 'version' -d 'Show the version.'
