function __ps-summary_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-summary_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-summary_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-summary_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-summary_parse_tokens -S
    set -l unparsed_tokens (__ps-summary_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-summary'
        __ps-summary_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'generate'
            __ps-summary_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'conversation=' 'message-count=' 'version' 'h/help'
        case 'list'
            __ps-summary_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'conversation=' 'version' 'h/help'
        case 'help'
            __ps-summary_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-summary_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-summary_parse_subcommand -S -a positional_count
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

function __ps-summary_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-summary_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-summary_tokens -p)
    if test -z "$(__ps-summary_tokens -t)"
        set -l index (count (__ps-summary_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-summary' -f
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary" version' -l 'version' -d 'Show the version.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_positional "ps-summary" -eq 1' -fa 'generate' -d 'Summarise a conversation\'s latest messages; writes the summary.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_positional "ps-summary" -eq 1' -fa 'list' -d 'Write every summary of a conversation (the default).'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_positional "ps-summary" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-summary_custom_completion ---completion generate -- --profile (count (__ps-summary_tokens -pc)) (__ps-summary_tokens -tC))'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" conversation' -l 'conversation' -d 'The conversation (default: the current one).' -rfka '(__ps-summary_custom_completion ---completion generate -- --conversation (count (__ps-summary_tokens -pc)) (__ps-summary_tokens -tC))'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" message-count' -l 'message-count' -d 'How many of its latest messages to summarise, 1 to 100 (default: the server\'s, 20).' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" version' -l 'version' -d 'Show the version.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary generate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-summary_custom_completion ---completion list -- --profile (count (__ps-summary_tokens -pc)) (__ps-summary_tokens -tC))'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" conversation' -l 'conversation' -d 'The conversation (default: the current one).' -rfka '(__ps-summary_custom_completion ---completion list -- --conversation (count (__ps-summary_tokens -pc)) (__ps-summary_tokens -tC))'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" version' -l 'version' -d 'Show the version.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-summary' -n '__ps-summary_should_offer_completions_for_flags_or_options "ps-summary help" version' -l 'version' -d 'Show the version.'
