function __ps-agents_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-agents_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-agents_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-agents_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-agents_parse_tokens -S
    set -l unparsed_tokens (__ps-agents_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-agents'
        __ps-agents_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'list'
            __ps-agents_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'drive=' 'version' 'h/help'
        case 'drives'
            __ps-agents_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'version' 'h/help'
        case 'show'
            __ps-agents_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'version' 'h/help'
        case 'set'
            __ps-agents_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'system-prompt-file=' 'system-prompt=' 'enable-tool=+' 'disable-tool=+' 'provider=' 'model=' 'version' 'h/help'
        case 'create'
            __ps-agents_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'drive=' 'title=' 'system-prompt-file=' 'system-prompt=' 'version' 'h/help'
        case 'ask'
            __ps-agents_parse_subcommand -r 2 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'conversation=' 'print-ids' 'raw' 'render' 'version' 'h/help'
        case 'help'
            __ps-agents_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-agents_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-agents_parse_subcommand -S -a positional_count
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

function __ps-agents_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-agents_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-agents_tokens -p)
    if test -z "$(__ps-agents_tokens -t)"
        set -l index (count (__ps-agents_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-agents' -f
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents" version' -l 'version' -d 'Show the version.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_positional "ps-agents" -eq 1' -fa 'list' -d 'List the AI agents, drive by drive (the default subcommand).'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_positional "ps-agents" -eq 1' -fa 'drives' -d 'List the drives the credential reaches.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_positional "ps-agents" -eq 1' -fa 'show' -d 'Show an agent\'s configuration: system prompt, tools, provider and model.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_positional "ps-agents" -eq 1' -fa 'set' -d 'Change an agent\'s system prompt, tools, provider or model.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_positional "ps-agents" -eq 1' -fa 'create' -d 'Make a new AI agent (an AI_CHAT page) in a drive.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_positional "ps-agents" -eq 1' -fa 'ask' -d 'Ask an agent and write its whole answer as a UI message stream.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_positional "ps-agents" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-agents_custom_completion ---completion list -- --profile (count (__ps-agents_tokens -pc)) (__ps-agents_tokens -tC))'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" drive' -l 'drive' -d 'Only this drive (its id, slug or name).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" version' -l 'version' -d 'Show the version.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-agents_custom_completion ---completion drives -- --profile (count (__ps-agents_tokens -pc)) (__ps-agents_tokens -tC))'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" version' -l 'version' -d 'Show the version.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents drives" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-agents_custom_completion ---completion show -- --profile (count (__ps-agents_tokens -pc)) (__ps-agents_tokens -tC))'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" version' -l 'version' -d 'Show the version.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-agents_custom_completion ---completion set -- --profile (count (__ps-agents_tokens -pc)) (__ps-agents_tokens -tC))'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" system-prompt-file' -l 'system-prompt-file' -d 'Read the system prompt from this file (- for stdin).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" system-prompt' -l 'system-prompt' -d 'A short system prompt given inline.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set"' -l 'enable-tool' -d 'Switch this tool on (repeatable).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set"' -l 'disable-tool' -d 'Switch this tool off (repeatable).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" provider' -l 'provider' -d 'The AI provider the agent uses.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" model' -l 'model' -d 'The model the agent uses (with its provider).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" version' -l 'version' -d 'Show the version.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-agents_custom_completion ---completion create -- --profile (count (__ps-agents_tokens -pc)) (__ps-agents_tokens -tC))'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" drive' -l 'drive' -d 'The drive to make it in (its id, slug or name).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" title' -l 'title' -d 'The agent\'s title.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" system-prompt-file' -l 'system-prompt-file' -d 'Read the system prompt from this file (- for stdin).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" system-prompt' -l 'system-prompt' -d 'A short system prompt given inline.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" version' -l 'version' -d 'Show the version.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-agents_custom_completion ---completion ask -- --profile (count (__ps-agents_tokens -pc)) (__ps-agents_tokens -tC))'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" conversation' -l 'conversation' -d 'Continue this conversation with the agent.' -rfka '(__ps-agents_custom_completion ---completion ask -- --conversation (count (__ps-agents_tokens -pc)) (__ps-agents_tokens -tC))'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" print-ids' -l 'print-ids' -d 'Print conversation=ID and message=ID lines on stderr, for scripts.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" raw' -l 'raw' -d '--raw: write the raw event stream even on a terminal; --render: show the answer rendered even in a pipe (default: rendered on a terminal, raw otherwise).'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" render' -l 'render' -d '--raw: write the raw event stream even on a terminal; --render: show the answer rendered even in a pipe (default: rendered on a terminal, raw otherwise).'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" version' -l 'version' -d 'Show the version.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents ask" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-agents' -n '__ps-agents_should_offer_completions_for_flags_or_options "ps-agents help" version' -l 'version' -d 'Show the version.'
