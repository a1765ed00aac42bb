import Testing
@testable import PSCore

/// The pieces of the --help glance: an option's first sentence, the examples of a discussion.
@Suite struct GlanceHelpTests {
    @Test func firstSentenceStopsAtAFullStopAfterAWord() {
        #expect(GlanceHelp.firstSentence("The profile to use. Default: PS_PROFILE.") == "The profile to use.")
        #expect(GlanceHelp.firstSentence("Seconds to wait (default 15). More.") == "Seconds to wait (default 15).")
        #expect(GlanceHelp.firstSentence("Only one sentence, e.g. this") == "Only one sentence, e.g. this")
        #expect(GlanceHelp.firstSentence("A file like ./x.md is read.") == "A file like ./x.md is read.")
    }

    @Test func firstSentenceReadsLettersBeyondASCII() {
        #expect(GlanceHelp.firstSentence("Die Straße. Weiter.") == "Die Straße.")
        #expect(GlanceHelp.firstSentence("Ends at ß… no. Yes.") == "Ends at ß… no.")
        #expect(GlanceHelp.firstSentence(". Not a sentence") == ". Not a sentence")
        #expect(GlanceHelp.firstSentence("One. ") == "One.")
        #expect(GlanceHelp.firstSentence("No space after.") == "No space after.")
        #expect(GlanceHelp.firstSentence("") == "")
    }

    @Test func wrapCountsCharactersNotBytes() {
        #expect(GlanceHelp.wrap("aaa bbb ccc", width: 7) == ["aaa bbb", "ccc"])
        #expect(GlanceHelp.wrap("ééé ééé ééé", width: 7) == ["ééé ééé", "ééé"])
        #expect(GlanceHelp.wrap("  spaced   words  ", width: 80) == ["spaced words"])
        #expect(GlanceHelp.wrap("toolongword x", width: 4) == ["toolongword", "x"])
    }

    @Test func examplesKeepTheirContinuationLines() {
        let discussion = """
            Prose.

            EXAMPLES:
              ps-send "hi" \\
                  | ps-sse
              ps-send --list-streams

            EXIT STATUS:
              0    success
            """
        #expect(GlanceHelp.examples(in: discussion) == [["  ps-send \"hi\" \\", "      | ps-sse"], ["  ps-send --list-streams"]])
    }

    @Test func aGlanceNamesTheSubcommandFromTheUsageLine() throws {
        let dump = """
            {"command":{"commandName":"ps-x","abstract":"Root.","subcommands":[{"commandName":"go",
            "abstract":"Go somewhere. Far.","discussion":"EXAMPLES:\\n  ps-x go --to y\\n",
            "arguments":[{"kind":"option","names":[{"kind":"long","name":"to"}],"valueName":"place",
            "abstract":"Where to go. Anywhere.","shouldDisplay":true}]}]}}
            """
        let glance = try #require(GlanceHelp(helpMessage: "OVERVIEW: Go\n\nUSAGE: ps-x go --to <place>\n\nOPTIONS:\n", dump: dump))
        #expect(glance.rendered() == """
            Go somewhere. Far.

            USAGE: ps-x go --to <place>

            OPTIONS:
              --to <place>  Where to go.

            EXAMPLES:
              ps-x go --to y

            The description, environment and exit status: man ps-x

            """)
    }
}
