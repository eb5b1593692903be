@testable import LogAnalysis

/// Hand-written `log show` exports and unified-log parser output in the shapes of
/// Sources/LogAnalysis/IOSLogFormats.md.
/// The story is `Fixture`'s: MyApp (pid 4100) launches WebContent 4107, which dies before it renders and is then
/// raised to foreground and found gone, at 10:11:12.12 Pacific standard time (18:11:12.12 UTC) on 2026-03-02.
enum LogShowFixture {
    static let launch = "0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:"
    static let taken =
        "0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107"
    static let rbsError =
        #"Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>"#
    static let failed =
        #"0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 "Specified target process does not exist" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}"#
    static let closed = "0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)"

    /// The default style: a preamble whose predicate names WebKit, the column header, an activity line, a message
    /// continued on an indented line, and the statistics footer.
    static let standard = """
        Filtering the log data using "subsystem == "com.apple.WebKit" OR subsystem == "com.apple.runningboard""
        Skipping info and debug messages, pass --info and/or --debug to include.
        Timestamp                       Thread     Type        Activity             PID    TTL  
        2026-03-02 10:11:12.120000-0800 0x2f1a3    Default     0x0                  4100   0    MyApp: (WebKit) [com.apple.WebKit:Process] \(launch)
        2026-03-02 10:11:12.120100-0800 0x2f1a3    Default     0x0                  4100   0    MyApp: (WebKit) [com.apple.WebKit:ProcessSuspension] \(taken)
        2026-03-02 10:11:12.122000-0800 0x2f1a3    Activity    0x5a1b2              4100   0    MyApp: (UIKitCore) send gesture actions
        2026-03-02 10:11:12.124000-0800 0x2f1a4    Error       0x0                  4100   0    MyApp: (RunningBoardServices) [com.apple.runningboard:assertion] \(rbsError)
        2026-03-02 10:11:12.124300-0800 0x2f1a4    Error       0x0                  4100   0    MyApp: (WebKit) [com.apple.WebKit:ProcessSuspension] \(failed)
        2026-03-02 10:11:12.400000-0800 0x2f1a3    Default     0x0                  4100   0    MyApp: (WebKit) [com.apple.WebKit:Process] \(closed)
            and the rest of a long message
        --------------------------------------------------------------------------------------------------------------------
        Log      - Default:          3, Info:                0, Debug:             0, Error:          2, Fault:          0
        Activity - Create:           1, Transition:          0, Actions:           0

        """

    /// `--style syslog`: two spaces, the simulation, then `MyApp[4100]:`; a process name with a space on one line.
    static let syslogStyle = """
        Filtering the log data using "subsystem == "com.apple.WebKit""
        Timestamp                       (process)[PID]    
        2026-03-02 10:11:12.120000-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:Process] \(launch)
        2026-03-02 10:11:12.120100-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:ProcessSuspension] \(taken)
        2026-03-02 10:11:12.124000-0800  localhost MyApp[4100]: (RunningBoardServices) [com.apple.runningboard:assertion] \(rbsError)
        2026-03-02 10:11:12.124300-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:ProcessSuspension] \(failed)
        2026-03-02 10:11:12.400000-0800  localhost MyApp[4100]: (WebKit) [com.apple.WebKit:Process] \(closed)

        """

    /// `--style compact`: milliseconds, no zone, two-column types (`E ` padded), `Process[pid:tid-hex]`, and the
    /// simulator's `getpwuid_r` line first.
    static let compact = """
        getpwuid_r did not find a match for uid 501
        Timestamp               Ty Process[PID:TID]
        2026-03-02 10:11:12.120 Df MyApp[4100:2f1a3] [com.apple.WebKit:Process] \(launch)
        2026-03-02 10:11:12.120 Df MyApp[4100:2f1a3] [com.apple.WebKit:ProcessSuspension] \(taken)
        2026-03-02 10:11:12.124 E  MyApp[4100:2f1a4] [com.apple.runningboard:assertion] \(rbsError)
        2026-03-02 10:11:12.124 E  MyApp[4100:2f1a4] [com.apple.WebKit:ProcessSuspension] \(failed)
        2026-03-02 10:11:12.400 Df MyApp[4100:2f1a3] [com.apple.WebKit:Process] \(closed)

        """

    /// `--style ndjson` as `log stream` prints it: a `Filtering` line first, keys in a different order on every
    /// line, `/` escaped, quotes and the assertion's apostrophes escaped, a closing record with `finished`.
    static let ndjson = #"""
        Filtering the log data using "subsystem == \"com.apple.WebKit\""
        {"timestamp":"2026-03-02 10:11:12.120000-0800","processID":4100,"processImagePath":"\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp","senderImagePath":"\/System\/Library\/Frameworks\/WebKit.framework\/WebKit","subsystem":"com.apple.WebKit","category":"Process","messageType":"Default","eventType":"logEvent","threadID":192931,"eventMessage":"0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:"}
        {"eventMessage":"0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107","threadID":192931,"processImagePath":"\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp","timestamp":"2026-03-02 10:11:12.120100-0800","subsystem":"com.apple.WebKit","category":"ProcessSuspension","processID":4100,"traceID":123,"backtrace":{"frames":[{"imageOffset":1234,"imageUUID":"A1"}]}}
        {"category":"assertion","subsystem":"com.apple.runningboard","senderImagePath":"\/System\/Library\/PrivateFrameworks\/RunningBoardServices.framework\/RunningBoardServices","processID":4100,"threadID":192932,"eventMessage":"Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>","timestamp":"2026-03-02 10:11:12.124000-0800","processImagePath":"\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp","messageType":"Error"}
        {"processImagePath":"\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp","eventMessage":"0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion \u0027WebProcess Foreground Assertion\u0027 for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}","threadID":192932,"processID":4100,"timestamp":"2026-03-02 10:11:12.124300-0800","formatString":"%p - ProcessAssertion: Failed to acquire RBS assertion '%{public}s' for process with PID=%d, error: %{public}@","source":null}
        {"threadID":192931,"timestamp":"2026-03-02 10:11:12.400000-0800","eventMessage":"0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)","processID":4100,"processImagePath":"\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp"}
        {"count":5,"finished":1}

        """#

    /// `--style json`: one pretty-printed array, objects opened by `[{`, `},{` and `}, {`, keys in any order, a nested
    /// backtrace whose frames open objects of their own on deeper lines.
    static let jsonArray = #"""
        [{
          "traceID" : 8485,
          "eventMessage" : "0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:",
          "eventType" : "logEvent",
          "source" : null,
          "threadID" : 192931,
          "backtrace" : {
            "frames" : [
              {
                "imageOffset" : 4242,
                "imageUUID" : "5C2D"
              }
            ]
          },
          "processImagePath" : "\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp",
          "timestamp" : "2026-03-02 10:11:12.120000-0800",
          "processID" : 4100
        },{
          "timestamp" : "2026-03-02 10:11:12.120100-0800",
          "processID" : 4100,
          "processImagePath" : "\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp",
          "threadID" : 192931,
          "eventMessage" : "0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107"
        }, {
          "processID" : 4100,
          "category" : "assertion",
          "eventMessage" : "Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>",
          "threadID" : 192932,
          "timestamp" : "2026-03-02 10:11:12.124000-0800",
          "processImagePath" : "\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp"
        },{
          "threadID" : 192932,
          "processImagePath" : "\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp",
          "timestamp" : "2026-03-02 10:11:12.124300-0800",
          "eventMessage" : "0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}",
          "processID" : 4100
        },{
          "eventMessage" : "0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)",
          "processID" : 4100,
          "timestamp" : "2026-03-02 10:11:12.400000-0800",
          "threadID" : 192931,
          "processImagePath" : "\/private\/var\/containers\/Bundle\/Application\/X\/MyApp.app\/MyApp"
        }]

        """#

    /// `unifiedlog_iterator --format jsonl`: keys in any order, the time as float nanoseconds and an RFC 3339 UTC
    /// string, or the float alone.
    static let unifiedLog = #"""
        {"subsystem":"com.apple.WebKit","thread_id":192931,"pid":4100,"euid":501,"library":"/System/Library/Frameworks/WebKit.framework/WebKit","activity_id":0,"time":1.77247507212e18,"category":"Process","event_type":"Log","log_type":"Default","process":"/private/var/containers/Bundle/Application/X/MyApp.app/MyApp","message":"0x10a2b3c40 - [PID=4107] WebProcessProxy::didFinishLaunching:","timezone_name":"PST8PDT","message_entries":[{"message_strings":"4107","item_type":"number"}],"timestamp":"2026-03-02T18:11:12.120000000Z","evidence":""}
        {"message":"0x10a2b3c40 - ProcessAssertion::acquireSync Successfully took RBS assertion 'WebProcess Background Assertion' for process with PID=4107","process":"/private/var/containers/Bundle/Application/X/MyApp.app/MyApp","pid":4100,"thread_id":192931,"log_type":"Default","event_type":"Log","time":1.7724750721201e18}
        {"log_type":"Error","event_type":"Log","library":"/System/Library/PrivateFrameworks/RunningBoardServices.framework/RunningBoardServices","category":"assertion","pid":4100,"thread_id":192932,"timestamp":"2026-03-02T18:11:12.124000000Z","process":"/private/var/containers/Bundle/Application/X/MyApp.app/MyApp","message":"Error acquiring assertion: <Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}>"}
        {"timestamp":"2026-03-02T18:11:12.124300000Z","thread_id":192932,"message":"0x10a2b3c40 - ProcessAssertion: Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: Error Domain=RBSAssertionErrorDomain Code=2 \"Specified target process does not exist\" UserInfo={NSLocalizedFailureReason=Specified target process does not exist}","pid":4100,"process":"/private/var/containers/Bundle/Application/X/MyApp.app/MyApp","log_type":"Error","event_type":"Log"}
        {"pid":4100,"event_type":"Log","log_type":"Default","time":1772475072400000000.0,"thread_id":192931,"process":"/private/var/containers/Bundle/Application/X/MyApp.app/MyApp","message":"0x10a2b3c40 - [PID=4107] WebProcessProxy::didClose: (web process 0 crash)"}

        """#

    /// A Console.app copy from a Mac set to Chinese (and one line from one set to German, spaced rather than tabbed;
    /// one with the pid column): the type column is not English.
    static let localizedConsole = """
        默认\t10:11:12.120000-0800\tMyApp\t\(launch)
        4100\t默认\t10:11:12.120100-0800\tMyApp\t\(taken)
        Fehler   10:11:12.124000 -0800   MyApp   \(rbsError)
        错误\t10:11:12.124300-0800\tMyApp\t\(failed)
        默认\t10:11:12.400000-0800\tMyApp\t\(closed)

        """

    /// Message-only lines, each indented with a tab, and a real continuation (indented by a tab too) after one.
    static let tabbed = """
        \t[WebKit] \(launch)
        \t\(taken)
        \t\(rbsError)
        \t0x10a2b3c40 - ProcessAssertion::acquireSync Failed to acquire RBS assertion 'WebProcess Foreground Assertion' for process with PID=4107, error: (null)
        \t\(closed)
        \tUserInfo={NSLocalizedFailureReason=Specified target process does not exist}

        """
}
