function __ps-send_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-send_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __ps-send_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __ps-send_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __ps-send_parse_tokens -S
    set -l unparsed_tokens (__ps-send_tokens -pc)
    switch $unparsed_tokens[1]
    case 'ps-send'
        __ps-send_parse_subcommand -r 1 'max-record-size=' 'profile=' 'server=' 'api=' 'cacert=' 'insecure' 'retries=' 'max-retry-wait=' 'connect-timeout=' 'idle-timeout=' 'conversation=' 'page=' 'agent=' 'new-conversation' 'drive=' 'provider=' 'model=' 'system=' 'max-stdin-bytes=' 'print-ids' 'resume=' 'from-seq=' 'regenerate' 'history=' 'no-resume' 'list-streams' 'extract-facts-every=' 'attach=+' 'raw' 'render' 'redact' 'allow-secrets' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __ps-send_parse_subcommand -r 1 'version'
        end
    end
end

function __ps-send_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __ps-send_parse_subcommand -S -a positional_count
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

function __ps-send_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __ps-send_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__ps-send_tokens -p)
    if test -z "$(__ps-send_tokens -t)"
        set -l index (count (__ps-send_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'ps-send' -f
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" max-record-size' -l 'max-record-size' -d 'The longest line, event or record to hold, in MiB (default 64; also PS_MAX_RECORD_MIB).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" profile' -l 'profile' -d 'The profile to use (default: PS_PROFILE, then the configured default, then \'default\').' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" server' -l 'server' -d 'The server\'s base URL; overrides PAGESPACE_API_URL and the profile\'s server.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" api' -l 'api' -d 'The API the server speaks: pagespace, pagespace-legacy, openai, lucid, gemini (default: the profile\'s, else detected).' -rfka 'pagespace pagespace-legacy openai lucid gemini'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" cacert' -l 'cacert' -d 'Verify the server\'s TLS certificate with this CA bundle.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" insecure' -l 'insecure' -d 'Do not verify the server\'s TLS certificate (only for a local test server).'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" retries' -l 'retries' -d 'How often a failed read (GET: network error, 408, 429, 5xx) is retried; also PS_RETRIES. A send (POST) is made once.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" max-retry-wait' -l 'max-retry-wait' -d 'The longest Retry-After to wait for, in seconds; a longer one fails at once. Also PS_MAX_RETRY_WAIT.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" connect-timeout' -l 'connect-timeout' -d 'Seconds to wait for a connection (default 15).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" idle-timeout' -l 'idle-timeout' -d 'Seconds without a byte from the server before giving up (default 300; keep-alive comments count).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" conversation' -l 'conversation' -d 'The conversation to send to (Global assistant; with --page, the agent\'s conversation).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" page' -l 'page' -d 'Send to this Page AI agent (an AI_CHAT page).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" agent' -l 'agent' -d 'Send to this Page AI agent, named by its title (ignoring case) or page id (as --page).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" new-conversation' -l 'new-conversation' -d 'Start a new conversation (Global assistant, or an OpenAI-compatible server\'s).'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" drive' -l 'drive' -d 'The drive the user is in: sent as location context (or the page\'s drive with --page).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" provider' -l 'provider' -d 'The AI provider to use (selectedProvider); becomes the stored default.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" model' -l 'model' -d 'The model to use (selectedModel; becomes the server\'s stored default; Gemini: a new conversation\'s); default: the profile\'s (ps-auth set-model).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" system' -l 'system' -d 'A system prompt sent with the conversation (OpenAI-compatible servers; PageSpace uses the agent\'s own).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" max-stdin-bytes' -l 'max-stdin-bytes' -d 'The most piped input taken as context after the arguments (default 1048576).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" print-ids' -l 'print-ids' -d 'Print conversation=ID, message=ID and stream=ID lines on stderr, for scripts.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" resume' -l 'resume' -d 'Write the reply MESSAGE-ID as it is being generated, instead of sending (current API, session token).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" from-seq' -l 'from-seq' -d 'With --resume: start at this chunk (default 0, the whole reply).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" regenerate' -l 'regenerate' -d 'Ask again: delete the conversation\'s last reply and send its last message once more.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" history' -l 'history' -d 'Start a new conversation from these messages (ps-history output; - for stdin), where the client keeps conversations.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" no-resume' -l 'no-resume' -d 'When the connection breaks mid-reply, stop (exit 9) instead of joining the reply again.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" list-streams' -l 'list-streams' -d 'List the replies being generated now (messageId, conversationId, ...) as NDJSON, instead of sending.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" extract-facts-every' -l 'extract-facts-every' -d 'After the send, have the server extract facts whenever the conversation\'s message count reaches a multiple of n (Lucid).' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send"' -l 'attach' -d 'Attach this file (repeatable): a JPEG, PNG, GIF or WebP image is sent as a file part; a UTF-8 text file goes into the message.' -rfka ''
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" raw' -l 'raw' -d '--raw: write the raw event stream even on a terminal; --render: show the reply rendered even in a pipe (default: rendered on a terminal, raw otherwise).'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" render' -l 'render' -d '--raw: write the raw event stream even on a terminal; --render: show the reply rendered even in a pipe (default: rendered on a terminal, raw otherwise).'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" redact' -l 'redact' -d 'Replace each secret found in what is sent with [REDACTED:kind], and send the rest.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" allow-secrets' -l 'allow-secrets' -d 'Send secrets found in what is sent as they are (by default ps-send refuses to send them).'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" version' -l 'version' -d 'Show the version.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'ps-send' -n '__ps-send_should_offer_completions_for_flags_or_options "ps-send help" version' -l 'version' -d 'Show the version.'
