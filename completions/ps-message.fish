function __ps-message_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-message_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-message_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-message_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-message_parse_tokens -S
    set -l unparsed_tokens (__ps-message_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-message'
        __ps-message_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'edit'
            __ps-message_parse_subcommand -r 2 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'conversation=' 'page=' 'version' 'h/help'
        case 'delete'
            __ps-message_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'conversation=' 'page=' 'version' 'h/help'
        case 'undo'
            __ps-message_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'dry-run' 'with-changes' 'version' 'h/help'
        case 'help'
            __ps-message_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-message_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-message_parse_subcommand -S -a positional_count
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

function __ps-message_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-message_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-message_tokens -p)
    if test -z "$(__ps-message_tokens -t)"
        set -l index (count (__ps-message_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-message' -f
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message" version' -l 'version' -d 'Show the version.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_positional "ps-message" -eq 1' -fa 'edit' -d 'Replace a message\'s text (its tool calls stay).'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_positional "ps-message" -eq 1' -fa 'delete' -d 'Delete one message.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_positional "ps-message" -eq 1' -fa 'undo' -d 'Rewind a conversation to before a message: it and every later message go.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_positional "ps-message" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-message_custom_completion ---completion edit -- --profile (count (__ps-message_tokens -pc)) (__ps-message_tokens -tC))'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" conversation' -l 'conversation' -d 'The Global assistant conversation (default: the current one; with --page, not needed).' -rfka '(__ps-message_custom_completion ---completion edit -- --conversation (count (__ps-message_tokens -pc)) (__ps-message_tokens -tC))'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" page' -l 'page' -d 'The message is a Page AI agent\'s (an AI_CHAT page).' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" version' -l 'version' -d 'Show the version.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-message_custom_completion ---completion delete -- --profile (count (__ps-message_tokens -pc)) (__ps-message_tokens -tC))'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" conversation' -l 'conversation' -d 'The Global assistant conversation (default: the current one; with --page, not needed).' -rfka '(__ps-message_custom_completion ---completion delete -- --conversation (count (__ps-message_tokens -pc)) (__ps-message_tokens -tC))'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" page' -l 'page' -d 'The message is a Page AI agent\'s (an AI_CHAT page).' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" version' -l 'version' -d 'Show the version.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-message_custom_completion ---completion undo -- --profile (count (__ps-message_tokens -pc)) (__ps-message_tokens -tC))'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" dry-run' -l 'dry-run' -d 'Show what would go, change nothing.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" with-changes' -l 'with-changes' -d 'Also undo the workspace changes the assistant\'s tools made.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" version' -l 'version' -d 'Show the version.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message undo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-message' -n '__ps-message_should_offer_completions_for_flags_or_options "ps-message help" version' -l 'version' -d 'Show the version.'
