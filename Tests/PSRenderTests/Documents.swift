/// Markdown documents that exercise every construct the renderer knows, including the ones
/// where later text changes how earlier text renders (setext headings, tables, references,
/// emphasis closed late, fences closed late).
enum Documents {
    static let constructs = """
        # Heading one

        Some *emphasis*, **strong**, ~~strike~~, `inline code` and a [link](https://example.com "t") \
        plus an autolink www.example.org and <https://example.net/x>.

        Setext heading
        ==============

        Second setext
        ---

        1. first item
        2. second item
           - nested bullet
           - another
             - deeper still
        3. third

        - [ ] open task
        - [x] done task

        > A quote that is long enough to wrap at the edge of a narrow terminal, with `code`.
        >
        > - a list in a quote

        ```swift
        let greeting = "hello"
        print(greeting)
        ```

        ~~~
        tilde fence
        ~~~

            indented code

        | Name | Qty | Note |
        |:-----|----:|:----:|
        | apple | 1 | 日本語 |
        | kiwi | 12 | é |

        ***

        Line with hard break\\
        next line and trailing.
        """

    static let lateChanges = """
        A paragraph that turns into a heading
        ===

        a | b
        -|-
        1 | 2

        See [the docs] and [other][ref] for more. **Bold that closes
        on the next line** and `code that
        spans` lines.

        [the docs]: https://docs.example.com
        [ref]: https://ref.example.com

        - item one

          second paragraph of item one
        - item two
        10. ten
        11. eleven

        <div>
        html block
        </div>

        Final words with *unclosed emphasis and a ` stray backtick.
        """

    static let unicode = """
        日本語のテキストはとても長いので、狭い端末では折り返す必要があります。これは二行目です。

        | 列 | 説明 |
        |----|------|
        | 一 | 短い |
        | 二 | とても長い説明がここに入ります |

        Cafe\u{301} and na\u{308}ive combine; emoji 🙂 take two columns.
        """

    static let unclosed = """
        Intro paragraph.

        ```python
        def f():
            return 1
        """

    /// Footnotes: numbered by first reference, definitions moved to the end, one never referenced,
    /// one reference without a definition.
    static let footnotes = """
        Intro without notes.

        Claim[^b] and another[^a], again[^b].

        [^a]: Alpha note.

        Middle paragraph with [^missing].

        [^b]: Beta note
            on two lines.

            And a second paragraph.

        [^unused]: Never referenced.

        Last words.
        """

    static let all = [constructs, lateChanges, unicode, unclosed, footnotes]
}
