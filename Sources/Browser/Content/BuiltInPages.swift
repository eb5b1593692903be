/// The default content: small pages shaped like an app's bundled web UI, each declaring a little render work.
enum BuiltInPages {
    static let all: [(path: String, html: String)] = [
        ("index.html", page("Home", memory: "2MB", cpu: "1ms", body: "<h1><img src=\"app-image://logo\" alt=\"\">Welcome</h1><p>Your library, offline.</p>")),
        ("article.html", page("Article", memory: "4MB", cpu: "2ms", body: "<article><h1>Release notes</h1><p>Faster start-up.</p></article>")),
        ("gallery.html", page("Gallery", memory: "8MB", cpu: "2ms", body: "<ul><li><img src=\"app-image://pixel\" alt=\"Photo 1\"></li><li>Photo 2</li><li>Photo 3</li></ul>")),
        ("settings.html", page("Settings", memory: "1MB", cpu: "1ms", body: "<form><input name=\"q\"><button>Save</button></form>")),
    ]

    /// The document the user types into.
    static let editor = page("Editor", memory: "1MB", cpu: "1ms", body: "<textarea autofocus></textarea>")

    private static func page(_ title: String, memory: String, cpu: String, body: String) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>\(title)</title>
        <meta name="x-render" content="memory=\(memory); cpu=\(cpu)"></head>
        <body>\(body)</body></html>
        """
    }
}
