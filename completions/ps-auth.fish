function __ps-auth_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-auth_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-auth_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-auth_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-auth_parse_tokens -S
    set -l unparsed_tokens (__ps-auth_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-auth'
        __ps-auth_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'login'
            __ps-auth_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'with-token' 'device' 'drive=+' 'name=' 'email=' 'password-stdin' 'user-name=' 'user-email=' 'timezone=' 'model=' 'version' 'h/help'
        case 'status'
            __ps-auth_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'offline' 'json' 'version' 'h/help'
        case 'token'
            __ps-auth_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'version' 'h/help'
        case 'logout'
            __ps-auth_parse_subcommand 0 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'local' 'version' 'h/help'
        case 'set-model'
            __ps-auth_parse_subcommand 1 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'unset' 'version' 'h/help'
        case 'help'
            __ps-auth_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-auth_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-auth_parse_subcommand -S -a positional_count
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

function __ps-auth_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-auth_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-auth_tokens -p)
    if test -z "$(__ps-auth_tokens -t)"
        set -l index (count (__ps-auth_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-auth' -f
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth" version' -l 'version' -d 'Show the version.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_positional "ps-auth" -eq 1' -fa 'login' -d 'Log in and store the credential under a profile.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_positional "ps-auth" -eq 1' -fa 'status' -d 'Show the server, the user, where the credential comes from, and whether it works.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_positional "ps-auth" -eq 1' -fa 'token' -d 'Print the token, for other programs.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_positional "ps-auth" -eq 1' -fa 'logout' -d 'Tell the server to end the session, then forget the stored credential.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_positional "ps-auth" -eq 1' -fa 'set-model' -d 'Store the model ps-send uses when it is given no --model, or remove it.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_positional "ps-auth" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-auth_custom_completion ---completion login -- --profile (count (__ps-auth_tokens -pc)) (__ps-auth_tokens -tC))'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" with-token' -l 'with-token' -d 'Read a token from stdin (or from the terminal, without echo).'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" device' -l 'device' -d 'Log in in a browser with a code (OAuth device flow, current API).'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login"' -l 'drive' -d 'With --device (required): grant an MCP key for this drive (repeatable).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" name' -l 'name' -d 'With --device --drive: the key\'s name (default: ps-tools on this host).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" email' -l 'email' -d 'Log in with this email and a password (pagespace-legacy).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" password-stdin' -l 'password-stdin' -d 'Read the password from the first line of stdin instead of the terminal.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" user-name' -l 'user-name' -d 'Without a credential (Lucid): the user\'s name.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" user-email' -l 'user-email' -d 'Without a credential (Lucid): the user\'s email address.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" timezone' -l 'timezone' -d 'Without a credential (Lucid): the user\'s time zone, e.g. Europe/Paris (default: TZ, if set).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" model' -l 'model' -d 'The model ps-send uses when given no --model (kept in the profile; change it with ps-auth set-model).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" version' -l 'version' -d 'Show the version.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth login" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-auth_custom_completion ---completion status -- --profile (count (__ps-auth_tokens -pc)) (__ps-auth_tokens -tC))'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" offline' -l 'offline' -d 'Do not contact the server.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" json' -l 'json' -d 'Write one JSON object of the same keys instead of lines.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" version' -l 'version' -d 'Show the version.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-auth_custom_completion ---completion token -- --profile (count (__ps-auth_tokens -pc)) (__ps-auth_tokens -tC))'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" version' -l 'version' -d 'Show the version.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth token" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-auth_custom_completion ---completion logout -- --profile (count (__ps-auth_tokens -pc)) (__ps-auth_tokens -tC))'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" local' -l 'local' -d 'Only forget the credential; do not contact the server.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" version' -l 'version' -d 'Show the version.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth logout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" profile' -l 'profile' -d 'The profile to use; its server, kind and login win over PAGESPACE_API_URL, PAGESPACE_API_KIND and PAGESPACE_TOKEN. Default: PS_PROFILE, then the configured default, then \'default\'.' -rfka '(__ps-auth_custom_completion ---completion set-model -- --profile (count (__ps-auth_tokens -pc)) (__ps-auth_tokens -tC))'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" server' -l 'server' -d 'The server\'s base URL. It overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" api' -l 'api' -d 'The API the server speaks. One of pagespace, pagespace-legacy, openai, lucid, gemini; default: the profile\'s, else detected.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" cacert' -l 'cacert' -d 'Verify TLS certificates with this CA bundle.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate. Only for a local test server.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" retries' -l 'retries' -d 'How often a failed read is retried. A read (GET) fails with a network error, a 408, a 429 or a 5xx; also PS_RETRIES. A send (POST) is retried only when no connection could be made (nothing was sent).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After waited for, in seconds. A longer one fails at once; also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" idle-timeout' -l 'idle-timeout' -d 'Seconds of silence before giving up (default 300). Silence is no byte from the server; keep-alive comments count as bytes.' -rfka ''
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" unset' -l 'unset' -d 'Remove the profile\'s model.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" version' -l 'version' -d 'Show the version.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth set-model" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-auth' -n '__ps-auth_should_offer_completions_for_flags_or_options "ps-auth help" version' -l 'version' -d 'Show the version.'
