import LabCommands
LabCommand.main()
