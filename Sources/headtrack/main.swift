import Commands
HeadtrackCommand.main()
