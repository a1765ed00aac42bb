function __ps-keys_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-keys_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-keys_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-keys_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-keys_parse_tokens -S
    set -l unparsed_tokens (__ps-keys_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-keys'
        __ps-keys_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'list'
            __ps-keys_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'version' 'h/help'
        case 'revoke'
            __ps-keys_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'version' 'h/help'
        case 'grants'
            __ps-keys_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'version' 'h/help'
        case 'revoke-grant'
            __ps-keys_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'step-up-token-stdin' 'version' 'h/help'
        case 'help'
            __ps-keys_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-keys_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-keys_parse_subcommand -S -a positional_count
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

function __ps-keys_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-keys_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-keys_tokens -p)
    if test -z "$(__ps-keys_tokens -t)"
        set -l index (count (__ps-keys_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-keys' -f
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys" version' -l 'version' -d 'Show the version.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_positional "ps-keys" -eq 1' -fa 'list' -d 'List the MCP keys (the default subcommand).'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_positional "ps-keys" -eq 1' -fa 'revoke' -d 'Revoke an MCP key: it stops working at once.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_positional "ps-keys" -eq 1' -fa 'grants' -d 'List the OAuth grants (connected apps) on the account.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_positional "ps-keys" -eq 1' -fa 'revoke-grant' -d 'Revoke an OAuth grant and the tokens issued under it.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_positional "ps-keys" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-keys_custom_completion ---completion list -- --profile (count (__ps-keys_tokens -pc)) (__ps-keys_tokens -tC))'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" version' -l 'version' -d 'Show the version.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-keys_custom_completion ---completion revoke -- --profile (count (__ps-keys_tokens -pc)) (__ps-keys_tokens -tC))'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" version' -l 'version' -d 'Show the version.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-keys_custom_completion ---completion grants -- --profile (count (__ps-keys_tokens -pc)) (__ps-keys_tokens -tC))'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" version' -l 'version' -d 'Show the version.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys grants" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-keys_custom_completion ---completion revoke-grant -- --profile (count (__ps-keys_tokens -pc)) (__ps-keys_tokens -tC))'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" step-up-token-stdin' -l 'step-up-token-stdin' -d 'Read a step-up token from the first line of stdin.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" version' -l 'version' -d 'Show the version.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys revoke-grant" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-keys' -n '__ps-keys_should_offer_completions_for_flags_or_options "ps-keys help" version' -l 'version' -d 'Show the version.'
