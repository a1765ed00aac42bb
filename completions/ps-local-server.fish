function __ps-local-server_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-local-server_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-local-server_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-local-server_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-local-server_parse_tokens -S
    set -l unparsed_tokens (__ps-local-server_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-local-server'
        __ps-local-server_parse_subcommand 0 'host=' 'port=' 'dialect=' 'pace-ms=' 'history-messages=' 'messages-per-timestamp=' 'keepalive-ms=' 'ping-interval-ms=' 'ping-timeout-ms=' 'gemini-idle-ms=' 'gemini-runs-tools' 'print-gemini-token' 'legacy-token-seconds=' 'oauth-token-seconds=' 'legacy-device-token-seconds=' 'local-models=' 'subscription-tier=' 'credit-gate=' 'quiet' 'watch-stdin' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __ps-local-server_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-local-server_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-local-server_parse_subcommand -S -a positional_count
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

function __ps-local-server_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-local-server_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-local-server_tokens -p)
    if test -z "$(__ps-local-server_tokens -t)"
        set -l index (count (__ps-local-server_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-local-server' -f
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" host' -l 'host' -d 'The address to listen on.' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" port' -l 'port' -d 'The port to listen on; 0 picks a free one (the URL line says which).' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" dialect' -l 'dialect' -d 'The API to speak: pagespace (the default), pagespace-legacy, openai, lucid or gemini. pagespace is PageSpace\'s current API, pagespace-legacy its late-2025 one, openai a plain OpenAI-compatible server, lucid lucid-agent\'s API, gemini the Gemini CLI\'s mobile API.' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" pace-ms' -l 'pace-ms' -d 'Milliseconds between stream events. 0 sends them at once.' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" history-messages' -l 'history-messages' -d 'Messages in the seeded global conversation. User and assistant alternate.' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" messages-per-timestamp' -l 'messages-per-timestamp' -d 'Seeded messages in a row sharing one createdAt. A burst written in the same tick.' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" keepalive-ms' -l 'keepalive-ms' -d 'Milliseconds between the gemini dialect\'s keep-alive comments.' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" ping-interval-ms' -l 'ping-interval-ms' -d 'The realtime service\'s Engine.IO ping interval. In milliseconds (engine.io\'s default).' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" ping-timeout-ms' -l 'ping-timeout-ms' -d 'How long the realtime service waits for a pong. In milliseconds; then it closes the session.' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" gemini-idle-ms' -l 'gemini-idle-ms' -d 'How long the gemini dialect keeps an idle conversation. In milliseconds without a message (the real server\'s 30 minutes).' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" gemini-runs-tools' -l 'gemini-runs-tools' -d 'The gemini dialect runs tool calls and sends their results (the real server fails every tool call).'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" print-gemini-token' -l 'print-gemini-token' -d 'Print the gemini dialect\'s demo Firebase ID token and exit.'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" legacy-token-seconds' -l 'legacy-token-seconds' -d 'How long a pagespace-legacy JWT lives (the real server\'s 15 minutes; shorter to try its renewal).' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" oauth-token-seconds' -l 'oauth-token-seconds' -d 'How long an OAuth access token of the device flow lives (the real server\'s 15 minutes).' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" legacy-device-token-seconds' -l 'legacy-device-token-seconds' -d 'How long a pagespace-legacy device token lives. 90 days; under 7 days it is rotated on every renewal.' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" local-models' -l 'local-models' -d 'How the local model servers answer. Current dialect: the deployment\'s Ollama and LM Studio are reachable (a fixed list of models each), unreachable (the routes\' fallback answers) or unconfigured (503; not offered in the AI settings).' -rfka 'reachable unreachable unconfigured'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" subscription-tier' -l 'subscription-tier' -d 'The demo user\'s plan (current dialect). free runs only the free models; pro, founder or business every model.' -rfka ''
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" credit-gate' -l 'credit-gate' -d 'How the credit gate answers a send. open, out_of_credits (402), too_many_in_flight or daily_cap_exceeded (429); current dialect.' -rfka 'open out_of_credits too_many_in_flight daily_cap_exceeded'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" quiet' -l 'quiet' -d 'Do not log requests on stderr.'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" watch-stdin' -l 'watch-stdin' -d 'Stop at end of file on standard input. A parent holding a pipe to it ends the server by ending.'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" version' -l 'version' -d 'Show the version.'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-local-server' -n '__ps-local-server_should_offer_completions_for_flags_or_options "ps-local-server help" version' -l 'version' -d 'Show the version.'
