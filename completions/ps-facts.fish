function __ps-facts_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-facts_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-facts_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-facts_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-facts_parse_tokens -S
    set -l unparsed_tokens (__ps-facts_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-facts'
        __ps-facts_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'list'
            __ps-facts_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'all' 'version' 'h/help'
        case 'extract'
            __ps-facts_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'conversation=' 'limit=' 'version' 'h/help'
        case 'off'
            __ps-facts_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'version' 'h/help'
        case 'on'
            __ps-facts_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'version' 'h/help'
        case 'search'
            __ps-facts_parse_subcommand -r 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'min-similarity=' 'limit=' 'version' 'h/help'
        case 'help'
            __ps-facts_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-facts_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-facts_parse_subcommand -S -a positional_count
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

function __ps-facts_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-facts_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-facts_tokens -p)
    if test -z "$(__ps-facts_tokens -t)"
        set -l index (count (__ps-facts_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-facts' -f
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts" version' -l 'version' -d 'Show the version.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_positional "ps-facts" -eq 1' -fa 'list' -d 'List the facts (the active ones unless --all).'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_positional "ps-facts" -eq 1' -fa 'extract' -d 'Have the server extract facts from a conversation; writes the facts it created.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_positional "ps-facts" -eq 1' -fa 'off' -d 'Switch a fact off (it is wrong, or no longer true); writes it.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_positional "ps-facts" -eq 1' -fa 'on' -d 'Switch a fact back on; writes it.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_positional "ps-facts" -eq 1' -fa 'search' -d 'The facts most like a question, best first ({fact, similarity} records).'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_positional "ps-facts" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-facts_custom_completion ---completion list -- --profile (count (__ps-facts_tokens -pc)) (__ps-facts_tokens -tC))'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" all' -l 'all' -d 'Also the facts switched off.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" version' -l 'version' -d 'Show the version.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-facts_custom_completion ---completion extract -- --profile (count (__ps-facts_tokens -pc)) (__ps-facts_tokens -tC))'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" conversation' -l 'conversation' -d 'The conversation (default: the current one).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" limit' -l 'limit' -d 'How many of its latest messages the server reads, 1 to 100 (default: the server\'s, 20).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" version' -l 'version' -d 'Show the version.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts extract" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-facts_custom_completion ---completion off -- --profile (count (__ps-facts_tokens -pc)) (__ps-facts_tokens -tC))'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" version' -l 'version' -d 'Show the version.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts off" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-facts_custom_completion ---completion on -- --profile (count (__ps-facts_tokens -pc)) (__ps-facts_tokens -tC))'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" version' -l 'version' -d 'Show the version.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts on" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-facts_custom_completion ---completion search -- --profile (count (__ps-facts_tokens -pc)) (__ps-facts_tokens -tC))'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" min-similarity' -l 'min-similarity' -d 'Leave out facts less similar than this (0 to 1; default: the server\'s, 0.82).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" limit' -l 'limit' -d 'At most this many results, 1 to 100 (default: the server\'s, 10).' -rfka ''
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" version' -l 'version' -d 'Show the version.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts search" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-facts' -n '__ps-facts_should_offer_completions_for_flags_or_options "ps-facts help" version' -l 'version' -d 'Show the version.'
