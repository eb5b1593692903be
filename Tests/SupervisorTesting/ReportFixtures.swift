@testable import Events
@testable import LogAnalysis

/// Hand-written diagnostic reports in the shapes of Sources/LogAnalysis/IOSLogFormats.md (made-up pids, times and
/// addresses). WebContent pid 4107 belongs to the host app MyApp, pid 4100, in coalition 977.
enum ReportFixture {
    /// A JSON crash report of WebContent: the metadata line, then the body with its keys in an unusual order, the
    /// exception and termination written on one line each, and frames and images to be skipped.
    static let webContentIPS = #"""
        {"app_name":"com.apple.WebKit.WebContent","timestamp":"2026-03-02 10:11:13.00 -0800","app_version":"18.1","slice_uuid":"0d1e2f30-4152-6374-8596-a7b8c9d0e1f2","build_version":"620.1.16.10.12","platform":2,"bundleID":"com.apple.WebKit.WebContent","share_with_app_devs":0,"is_first_party":1,"bug_type":"309","os_version":"iPhone OS 18.1 (22B83)","roots_installed":0,"name":"com.apple.WebKit.WebContent","incident_id":"7A1B2C3D-0000-4000-8000-00000000A001"}
        {
          "uptime" : 91000,
          "procRole" : "Background",
          "version" : 2,
          "userID" : 501,
          "threads" : [{"triggered":true,"id":88001,"frames":[{"imageOffset":1024,"symbol":"WebCore::Node::ref()","imageIndex":3},{"imageOffset":2048,"symbol":"objc_msgSend \"quoted\" [x]","imageIndex":1}],"queue":"com.apple.main-thread"},{"id":88002,"frames":[{"imageOffset":4,"imageIndex":0}]}],
          "modelCode" : "iPhone14,5",
          "coalitionID" : 977,
          "osVersion" : {
            "isEmbedded" : true,
            "train" : "iPhone OS 18.1",
            "releaseType" : "User",
            "build" : "22B83"
          },
          "captureTime" : "2026-03-02 10:11:13.0912 -0800",
          "incident" : "7A1B2C3D-0000-4000-8000-00000000A001",
          "pid" : 4107,
          "cpuType" : "ARM-64",
          "procLaunch" : "2026-03-02 10:11:10.5000 -0800",
          "procName" : "com.apple.WebKit.WebContent",
          "procPath" : "\/System\/Library\/Frameworks\/WebKit.framework\/XPCServices\/com.apple.WebKit.WebContent.xpc\/com.apple.WebKit.WebContent",
          "parentProc" : "launchd",
          "parentPid" : 1,
          "coalitionName" : "com.example.myapp",
          "responsibleProc" : "MyApp",
          "responsiblePid" : 4100,
          "exception" : {"codes":"0x0000000000000001, 0x0000000000000010","rawCodes":[1,16],"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","subtype":"KERN_INVALID_ADDRESS at 0x0000000000000010"},
          "termination" : {"flags":0,"code":11,"namespace":"SIGNAL","indicator":"Segmentation fault: 11","byProc":"exc handler","byPid":4107},
          "faultingThread" : 0,
          "usedImages" : [
          {
            "source" : "P",
            "base" : 4295000064,
            "name" : "com.apple.WebKit.WebContent"
          }
        ]
        }
        """#

    /// The host app's own crash: launchd as its parent, no responsible process, an abort.
    static let hostAppIPS = #"""
        {"app_name":"MyApp","timestamp":"2026-03-02 10:20:00.00 -0800","bundleID":"com.example.myapp","bug_type":"309","os_version":"iPhone OS 18.1 (22B83)","incident_id":"7A1B2C3D-0000-4000-8000-00000000A002"}
        {
          "exception" : {"codes":"0x0000000000000000, 0x0000000000000000","rawCodes":[0,0],"type":"EXC_CRASH","signal":"SIGABRT"},
          "termination" : {"flags":0,"code":6,"namespace":"SIGNAL","indicator":"Abort trap: 6","byProc":"MyApp","byPid":4100},
          "procName" : "MyApp",
          "pid" : 4100,
          "parentProc" : "launchd",
          "parentPid" : 1,
          "coalitionID" : 977,
          "captureTime" : "2026-03-02 10:19:59.8000 -0800",
          "procPath" : "\/private\/var\/containers\/Bundle\/Application\/0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9\/MyApp.app\/MyApp",
          "threads" : [{"triggered":true,"id":99001,"frames":[{"imageOffset":77,"symbol":"abort","imageIndex":2}]}]
        }
        """#

    /// An older iOS `.crash` in text: WebContent pid 4107 for MyApp, wide padding, then backtraces.
    static let textCrash = """
        Incident Identifier: 7A1B2C3D-0000-4000-8000-00000000A003
        CrashReporter Key:   0123456789abcdef0123456789abcdef01234567
        Hardware Model:      iPhone12,1
        Process:             com.apple.WebKit.WebContent [4107]
        Path:                /System/Library/Frameworks/WebKit.framework/XPCServices/com.apple.WebKit.WebContent.xpc/com.apple.WebKit.WebContent
        Identifier:          com.apple.WebKit.WebContent
        Version:             614.4.6 (614.4.6)
        Code Type:           ARM-64 (Native)
        Role:                Background
        Parent Process:      launchd [1]
        Coalition:           com.example.myapp [977]
        Responsible Process: MyApp [4100]
        Responsible:         MyApp [4100]

        Date/Time:           2023-05-04 11:12:13.4560 +0200
        Launch Time:         2023-05-04 11:12:01.0000 +0200
        OS Version:          iPhone OS 16.4.1 (20E252)
        Release Type:        User
        Report Version:      104

        Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
        Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000010
        Exception Codes: 0x0000000000000001, 0x0000000000000010
        VM Region Info: 0x10 is not in any region.
        Termination Reason: SIGNAL 11 Segmentation fault: 11
        Terminating Process: exc handler [4107]

        Triggered by Thread:  0

        Thread 0 name:   Dispatch queue: com.apple.main-thread
        Thread 0 Crashed:
        0   WebCore                       0x00000001a0b0c0d0 WebCore::Node::ref() + 16
        1   WebCore                       0x00000001a0b0c100 WebCore::Document::updateStyle() + 200

        Binary Images:
        0x100000000 - 0x100003fff com.apple.WebKit.WebContent arm64  <0d1e2f3041526374859600000000000a> /System/Library/Frameworks/WebKit.framework/XPCServices/com.apple.WebKit.WebContent.xpc/com.apple.WebKit.WebContent

        """

    /// Console's "Translated Report" of a macOS WebContent crash, with the JSON it was made from after it.
    static let translatedReport = #"""
        -------------------------------------
        Translated Report (Full Report Below)
        -------------------------------------

        Process:               com.apple.WebKit.WebContent [5120]
        Path:                  /System/Library/Frameworks/WebKit.framework/Versions/A/XPCServices/com.apple.WebKit.WebContent.xpc/Contents/MacOS/com.apple.WebKit.WebContent
        Identifier:            com.apple.WebKit.WebContent
        Version:               19620 (19620.1.16.111.7)
        Code Type:             ARM-64 (Native)
        Parent Process:        launchd [1]
        Responsible:           Safari [5001]
        User ID:               501

        Date/Time:             2026-01-20 09:08:07.6543 -0500
        OS Version:            macOS 15.1 (24B83)
        Report Version:        12

        Time Awake Since Boot: 91000 seconds

        Crashed Thread:        0  Dispatch queue: com.apple.main-thread

        Exception Type:        EXC_BAD_ACCESS (SIGBUS)
        Exception Codes:       KERN_PROTECTION_FAILURE at 0x0000000104000000
        Termination Reason:    Namespace SIGNAL, Code 10 Bus error: 10
        Terminating Process:   exc handler [5120]

        Thread 0 Crashed::  Dispatch queue: com.apple.main-thread
        0   JavaScriptCore                	       0x1a2b3c4d5 JSC::Heap::collect() + 40


        -----------
        Full Report
        -----------

        {"app_name":"com.apple.WebKit.WebContent","timestamp":"2026-01-20 09:08:08.00 -0500","bug_type":"309","name":"com.apple.WebKit.WebContent"}
        {
          "pid" : 5120,
          "procName" : "com.apple.WebKit.WebContent",
          "exception" : {"type":"EXC_BAD_ACCESS","signal":"SIGBUS"}
        }

        """#

    /// A JetsamEvent report: WebContent 4107 killed for the per-process limit, WebContent 4120 alive, a daemon killed
    /// idle; the page size comes after the processes, and the entries carry odd keys.
    static let jetsam = #"""
        {"bug_type":"298","timestamp":"2026-03-02 10:11:13.00 -0800","os_version":"iPhone OS 18.1 (22B83)","incident_id":"7A1B2C3D-0000-4000-8000-00000000A004"}
        {
          "crashReporterKey" : "0123456789abcdef0123456789abcdef01234567",
          "kernel" : "Darwin Kernel Version 24.1.0",
          "product" : "iPhone14,5",
          "incident" : "7A1B2C3D-0000-4000-8000-00000000A004",
          "date" : "2026-03-02 10:11:12.96 -0800",
          "build" : "iPhone OS 18.1 (22B83)",
          "timeDelta" : 7,
          "largestProcess" : "com.apple.WebKit.WebContent",
          "genCounter" : 3,
          "processes" : [
          {
            "uuid" : "0d1e2f30-4152-6374-8596-a7b8c9d0e1f2",
            "states" : [
              "frontmost",
              "resume"
            ],
            "killDelta" : 3021,
            "genCount" : 0,
            "age" : 98000213,
            "purgeable" : 0,
            "fds" : 31,
            "coalition" : 977,
            "rpages" : 2210,
            "priority" : 0,
            "reason" : "per-process-limit",
            "freeze_skip_reason:" : "none",
            "pid" : 4107,
            "idleDelta" : 0,
            "name" : "com.apple.WebKit.WebContent",
            "lifetimeMax" : 2530
          },
          {
            "uuid" : "0d1e2f30-4152-6374-8596-a7b8c9d0e1f3",
            "states" : ["daemon", "idle"],
            "age" : 41000000,
            "fds" : 25,
            "coalition" : 977,
            "rpages" : 1800,
            "priority" : 0,
            "freeze_skip_reason:" : "none",
            "pid" : 4120,
            "name" : "com.apple.WebKit.WebContent",
            "lifetimeMax" : 1900
          },
          {"uuid":"0d1e2f30-4152-6374-8596-a7b8c9d0e1f4","states":["daemon","idle"],"killDelta":120,"coalition":12,"rpages":310,"priority":1,"reason":"idle-exit","pid":212,"name":"assetsd","lifetimeMax":400}
          ],
          "memoryStatus" : {
            "compressorSize" : 41000,
            "compressions" : 9000000,
            "decompressions" : 7000000,
            "busyBufferCount" : 0,
            "memoryPageSize" : 16384,
            "pageSize" : 16384,
            "memoryPages" : {
              "active" : 90000,
              "throttled" : 0,
              "fileBacked" : 40000,
              "wired" : 60000,
              "purgeable" : 1000,
              "inactive" : 80000,
              "free" : 2000,
              "speculative" : 1000
            }
          }
        }
        """#

    /// Another kind of report (a stackshot, `bug_type` 288): recognised, no facts.
    static let otherReport = #"""
        {"bug_type":"288","timestamp":"2026-03-02 10:00:00.00 -0800","os_version":"iPhone OS 18.1 (22B83)"}
        {
          "reason" : "stackshot",
          "processByPid" : {"4107":{"procname":"com.apple.WebKit.WebContent"}}
        }
        """#
}
